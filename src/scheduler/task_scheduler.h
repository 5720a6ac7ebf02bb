#pragma once
// The task scheduler (Ansor §6): splits a tuning budget, counted in
// units (one unit = one round of search and measurement of one task), among
// many tasks so that the objective f(g_1, …, g_n) falls fastest.
//
// Gradient policy, each unit:
//   1. warm-up: a task that has had no unit yet (lowest index first);
//   2. a task with no valid program yet, while it has had fewer than
//      `max_units_without_program` units (fewest units first);
//   3. with probability ε, a task drawn uniformly among the active ones;
//   4. otherwise argmax_i |∂f/∂t_i| over the active tasks (ties: fewest units,
//      then lowest index), with
//        ∂f/∂t_i ≈ ∂f/∂g_i · (α·(g_i(t_i) − g_i(t_i − Δt))/Δt
//                              + (1−α)·min(−g_i(t_i)/t_i, β·C_i/max_{k∈N(i)} V_k − g_i(t_i)))
// Round-robin policy: the active task with the fewest units (lowest index first).
//
// A task is retired (never chosen again) when it has had
// `max_units_without_program` units without a valid program, or, with
// `early_stopping` > 0, when its best latency has not improved in its last
// `early_stopping` units. Both policies retire. docs/task_scheduler.md has the
// reasons for each rule.
//
// Nothing here measures anything: a TaskTuner does one unit of work for a
// task and says what the task's best latency now is. The step API
// (next_task / report) serves callers that drive the loop themselves.
#include "scheduler/objective.h"
#include "scheduler/task.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <vector>

namespace ansor {

enum class SchedulePolicy { Gradient, RoundRobin };

struct TaskSchedulerOptions {
    SchedulePolicy policy = SchedulePolicy::Gradient;
    // Weight of the observed slope (backward difference) against the
    // optimistic guess of the next unit's gain. TVM's default.
    double alpha = 0.2;
    // Trust in the similarity guess: task i is assumed able to reach 1/β of
    // the best flop/s achieved by a similar task. TVM's default.
    double beta = 2.0;
    // Δt, in units: how far back the observed slope looks (shortened to the
    // units the task has with a valid program). TVM's default.
    int backward_window = 3;
    // Probability of giving a unit to a random active task. TVM's default.
    double epsilon = 0.05;
    // Units (warm-up included) a task may take without finding any valid
    // program before it is retired as infeasible. Must be ≥ 1.
    int max_units_without_program = 4;
    // Retire a task after this many units without improvement (f4's
    // per-task early stopping); 0 = never. TVM's default is off too.
    int early_stopping = 0;
    // A unit improves a task when its best latency falls below the best at
    // the task's last improvement by more than this fraction (0: any drop),
    // so that noise-sized gains do not keep a converged task alive.
    double min_relative_improvement = 0;
    uint64_t seed = 0;
};

class TaskTuner {
public:
    virtual ~TaskTuner() = default;
    // One unit of tuning work on `task`; returns the task's best latency so
    // far (+inf, or NaN, while it has no valid program).
    virtual double tune_one_unit(int task) = 0;
};

enum class TaskStatus { Active, Infeasible, Converged };
const char *task_status_name(TaskStatus s);

class TaskScheduler {
public:
    // Throws std::invalid_argument on bad tasks, a null objective or options
    // out of range.
    TaskScheduler(std::vector<Task> tasks, std::shared_ptr<const Objective> objective,
                  TaskSchedulerOptions options = {});

    // Gives up to `units` units to tasks, one at a time, from `tuner`;
    // returns the units given (fewer only when every task is retired). May
    // be called again to continue.
    int run(TaskTuner &tuner, int units);

    // Step API: the task that should get the next unit (nullopt when every
    // task is retired), then the task's best latency after that unit. A
    // latency above the task's best so far leaves the best unchanged; NaN
    // counts as +inf; zero or negative latencies are rejected.
    // next_task() draws from the random generator, so call it once per unit.
    std::optional<int> next_task();
    void report(int task, double best_latency);

    // The estimate of ∂f/∂t_i for an active task with a valid program (0 for
    // any other task, and when the estimate is not finite).
    double gradient_estimate(int task) const;

    int task_count() const { return (int)tasks_.size(); }
    const Task &task(int i) const { return tasks_.at(i); }
    int units(int task) const { return (int)history_.at(task).size(); }
    int total_units() const { return (int)order_.size(); }
    // g_i(k) after k = 1, 2, … units: history(i)[k − 1].
    const std::vector<double> &history(int task) const { return history_.at(task); }
    double best(int task) const;  // +inf before a valid program
    TaskStatus status(int task) const { return status_.at(task); }
    std::vector<double> best_latencies() const;
    double objective_value() const { return objective_->value(best_latencies()); }
    // The tasks in the order they were given units.
    const std::vector<int> &order() const { return order_; }

private:
    std::optional<int> warm_up_or_repair() const;
    std::optional<int> fewest_units_active() const;
    std::optional<int> random_active();
    std::optional<int> steepest_active() const;
    double observed_slope(int task) const;
    double optimistic_gain(int task) const;

    std::vector<Task> tasks_;
    std::shared_ptr<const Objective> objective_;
    TaskSchedulerOptions options_;
    std::vector<std::vector<double>> history_;
    std::vector<TaskStatus> status_;
    std::vector<double> best_at_improvement_;  // the best at the task's last improvement
    std::vector<int> units_at_improvement_;    // units the task had then
    std::vector<std::string> similarity_;      // similarity_key() of each task
    std::vector<int> order_;
    std::mt19937_64 rng_;
};

}  // namespace ansor
