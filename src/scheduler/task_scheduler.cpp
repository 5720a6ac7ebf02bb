#include "scheduler/task_scheduler.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace ansor {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

void check_options(const TaskSchedulerOptions &o) {
    auto fail = [](const std::string &what) { throw std::invalid_argument("task scheduler option " + what); };
    if (!(o.alpha >= 0 && o.alpha <= 1)) fail("alpha must be in [0, 1]");
    if (!(o.beta > 0) || !std::isfinite(o.beta)) fail("beta must be positive");
    if (o.backward_window < 1) fail("backward_window must be at least 1");
    if (!(o.epsilon >= 0 && o.epsilon <= 1)) fail("epsilon must be in [0, 1]");
    if (o.max_units_without_program < 1) fail("max_units_without_program must be at least 1");
    if (o.early_stopping < 0) fail("early_stopping must not be negative");
    if (!(o.min_relative_improvement >= 0 && o.min_relative_improvement < 1))
        fail("min_relative_improvement must be in [0, 1)");
}

}  // namespace

const char *task_status_name(TaskStatus s) {
    switch (s) {
    case TaskStatus::Active: return "active";
    case TaskStatus::Infeasible: return "infeasible";
    case TaskStatus::Converged: return "converged";
    }
    return "?";
}

TaskScheduler::TaskScheduler(std::vector<Task> tasks, std::shared_ptr<const Objective> objective,
                             TaskSchedulerOptions options)
    : tasks_(std::move(tasks)), objective_(std::move(objective)), options_(options), rng_(options.seed) {
    validate_tasks(tasks_);
    if (!objective_) throw std::invalid_argument("the task scheduler needs an objective");
    check_options(options_);
    const size_t n = tasks_.size();
    history_.resize(n);
    status_.assign(n, TaskStatus::Active);
    best_at_improvement_.assign(n, kInf);
    units_at_improvement_.assign(n, 0);
    for (const Task &t : tasks_) similarity_.push_back(similarity_key(t));
}

double TaskScheduler::best(int task) const {
    const std::vector<double> &h = history_.at(task);
    return h.empty() ? kInf : h.back();  // the history holds running minima
}

std::vector<double> TaskScheduler::best_latencies() const {
    std::vector<double> g(tasks_.size());
    for (size_t i = 0; i < g.size(); i++) g[i] = best((int)i);
    return g;
}

int TaskScheduler::run(TaskTuner &tuner, int units) {
    int given = 0;
    while (given < units) {
        const std::optional<int> task = next_task();
        if (!task) break;
        report(*task, tuner.tune_one_unit(*task));
        given++;
    }
    return given;
}

std::optional<int> TaskScheduler::next_task() {
    if (options_.policy == SchedulePolicy::RoundRobin) return fewest_units_active();
    if (std::optional<int> t = warm_up_or_repair()) return t;
    // One draw per choice, whatever ε, so the stream of choices depends only
    // on the seed and the reports.
    const double u = (double)(rng_() >> 11) * 0x1.0p-53;  // uniform in [0, 1)
    if (u < options_.epsilon) return random_active();
    return steepest_active();
}

void TaskScheduler::report(int task, double best_latency) {
    if (task < 0 || task >= task_count()) throw std::out_of_range("task index " + std::to_string(task));
    if (status_[task] != TaskStatus::Active)
        throw std::logic_error("task " + tasks_[task].name + " is " + task_status_name(status_[task]));
    if (std::isnan(best_latency)) best_latency = kInf;
    if (!(best_latency > 0)) throw std::invalid_argument("latency must be positive, got " + std::to_string(best_latency));

    const double g = std::min(best(task), best_latency);
    history_[task].push_back(g);
    order_.push_back(task);
    const int t = units(task);

    if (g < best_at_improvement_[task] * (1 - options_.min_relative_improvement)) {
        best_at_improvement_[task] = g;
        units_at_improvement_[task] = t;
    }
    const bool stalled = options_.early_stopping > 0 && t - units_at_improvement_[task] >= options_.early_stopping;
    if (!std::isfinite(g)) {
        if (t >= options_.max_units_without_program || stalled) status_[task] = TaskStatus::Infeasible;
    } else if (stalled) {
        status_[task] = TaskStatus::Converged;
    }
}

// Warm-up first (every task once), then the tasks still without a valid
// program, each up to its cap: f is infinite while one of them has none, and
// no gradient can be estimated for it. The cap (the task is retired when it
// is reached, see report) is what keeps such a task from capturing the
// scheduler.
std::optional<int> TaskScheduler::warm_up_or_repair() const {
    for (int i = 0; i < task_count(); i++)
        if (status_[i] == TaskStatus::Active && units(i) == 0) return i;
    std::optional<int> pick;
    for (int i = 0; i < task_count(); i++)
        if (status_[i] == TaskStatus::Active && !std::isfinite(best(i)) && (!pick || units(i) < units(*pick)))
            pick = i;
    return pick;
}

std::optional<int> TaskScheduler::fewest_units_active() const {
    std::optional<int> pick;
    for (int i = 0; i < task_count(); i++)
        if (status_[i] == TaskStatus::Active && (!pick || units(i) < units(*pick))) pick = i;
    return pick;
}

std::optional<int> TaskScheduler::random_active() {
    std::vector<int> active;
    for (int i = 0; i < task_count(); i++)
        if (status_[i] == TaskStatus::Active) active.push_back(i);
    if (active.empty()) return std::nullopt;
    return active[rng_() % active.size()];
}

std::optional<int> TaskScheduler::steepest_active() const {
    std::optional<int> pick;
    double steepest = -1;
    for (int i = 0; i < task_count(); i++) {
        if (status_[i] != TaskStatus::Active) continue;
        const double s = std::abs(gradient_estimate(i));
        // Ties (e.g. every gradient 0) go to the task with fewer units, as
        // round-robin would, then to the lower index.
        if (!pick || s > steepest || (s == steepest && units(i) < units(*pick))) {
            pick = i;
            steepest = s;
        }
    }
    return pick;
}

double TaskScheduler::gradient_estimate(int task) const {
    if (status_.at(task) != TaskStatus::Active || !std::isfinite(best(task))) return 0;
    const double df_dg = objective_->gradient(best_latencies(), task);
    const double dg_dt = options_.alpha * observed_slope(task) + (1 - options_.alpha) * optimistic_gain(task);
    const double d = df_dg * dg_dt;
    return std::isfinite(d) ? d : 0;
}

// (g_i(t_i) − g_i(t_i − Δt)) / Δt, the window shortened to the units since the
// task's first valid program (before it g_i is +inf and the slope would be
// infinite); 0 with a single such unit.
double TaskScheduler::observed_slope(int task) const {
    const std::vector<double> &h = history_[task];
    const int now = (int)h.size() - 1;
    int first_valid = 0;
    while (first_valid < now && !std::isfinite(h[first_valid])) first_valid++;
    const int window = std::min(options_.backward_window, now - first_valid);
    if (window <= 0) return 0;
    return (h[now] - h[now - window]) / window;
}

// The optimistic guess of g_i(t_i + 1) − g_i(t_i): the smaller (more hopeful)
// of "the next unit gains the average gain so far", −g_i/t_i, and "the task
// reaches 1/β of the best flop/s of the tasks similar to it",
// β·C_i/max_k V_k − g_i. The second needs the task's flop count and a similar
// task (other than i) with a valid program and a flop count; task i's own
// flop/s is in the max as well.
double TaskScheduler::optimistic_gain(int task) const {
    const double g = best(task);
    const double average_gain = -g / units(task);
    const Task &me = tasks_[task];
    if (me.flops <= 0 || similarity_[task].empty()) return average_gain;
    double fastest = me.flops / g;  // V_k = C_k / g_k, in flop per latency unit
    bool other = false;
    for (int k = 0; k < task_count(); k++) {
        if (k == task || similarity_[k] != similarity_[task]) continue;
        if (tasks_[k].flops <= 0 || !std::isfinite(best(k))) continue;
        fastest = std::max(fastest, tasks_[k].flops / best(k));
        other = true;
    }
    if (!other) return average_gain;
    return std::min(average_gain, options_.beta * me.flops / fastest - g);
}

}  // namespace ansor
