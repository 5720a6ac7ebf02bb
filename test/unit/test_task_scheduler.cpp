// The task scheduler (src/scheduler/) on synthetic tasks whose latency after
// t units is known: g_i(t) = a_i + b_i·exp(−t/τ_i), or +inf for a task that
// never finds a valid program. Objectives are checked against hand
// computations.
#include "scheduler/task_scheduler.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

using namespace ansor;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Curve {
    double a, b, tau;
    bool never_valid = false;
    double at(int t) const { return never_valid ? kInf : a + b * std::exp(-t / tau); }
};

// Plays the curves: the k-th unit given to task i returns g_i(k).
class CurveTuner : public TaskTuner {
public:
    explicit CurveTuner(std::vector<Curve> curves) : curves_(std::move(curves)), units_(curves_.size(), 0) {}
    double tune_one_unit(int task) override { return curves_.at(task).at(++units_.at(task)); }

private:
    std::vector<Curve> curves_;
    std::vector<int> units_;
};

std::vector<Task> plain_tasks(int n) {
    std::vector<Task> tasks(n);
    for (int i = 0; i < n; i++) tasks[i].name = "t" + std::to_string(i);
    return tasks;
}

TaskSchedulerOptions greedy(SchedulePolicy policy = SchedulePolicy::Gradient) {
    TaskSchedulerOptions o;
    o.policy = policy;
    o.epsilon = 0;  // no random choices: the allocation follows the gradient alone
    return o;
}

// Runs `units` units on the curves under f1 and returns the scheduler.
TaskScheduler run_f1(const std::vector<Task> &tasks, const std::vector<Curve> &curves, int units,
                     TaskSchedulerOptions options) {
    TaskScheduler s(tasks, make_weighted_sum_objective(tasks), options);
    CurveTuner tuner(curves);
    CHECK(s.run(tuner, units) == units);
    return s;
}

}  // namespace

TEST_CASE("task scheduler: warm-up gives every task one unit first") {
    const std::vector<Task> tasks = plain_tasks(4);
    const std::vector<Curve> curves = {{1, 1, 5}, {2, 1, 5}, {3, 1, 5}, {4, 1, 5}};
    TaskScheduler s = run_f1(tasks, curves, 4, greedy());
    CHECK(s.order() == std::vector<int>{0, 1, 2, 3});
    CHECK(s.best(2) == doctest::Approx(3 + std::exp(-1 / 5.0)));
}

TEST_CASE("task scheduler: with f1 the task weighted 10x gets most units") {
    std::vector<Task> tasks = plain_tasks(2);
    tasks[0].weight = 10;
    const Curve same = {1, 4, 8};
    TaskScheduler s = run_f1(tasks, {same, same}, 40, greedy());
    CHECK(s.units(0) > 0.7 * 40);
    CHECK(s.units(1) >= 1);  // warm-up
    // Under round-robin both get half.
    TaskScheduler rr = run_f1(tasks, {same, same}, 40, greedy(SchedulePolicy::RoundRobin));
    CHECK(rr.units(0) == 20);
    CHECK(s.objective_value() < rr.objective_value());
}

TEST_CASE("task scheduler: a flat task gets fewer units than the improving ones") {
    // Task 0 is flat at 1; tasks 1 and 2 improve from ~4 towards 1. Under the
    // gradient estimate the flat task's |∂f/∂t| still decays only as
    // (1−α)·g/t (the optimistic guess), so it keeps some units; it gets
    // fewer than round-robin's third and fewer than half of each other task's.
    const std::vector<Task> tasks = plain_tasks(3);
    const std::vector<Curve> curves = {{1, 0, 1}, {1, 3, 15}, {1, 3, 15}};
    TaskScheduler s = run_f1(tasks, curves, 60, greedy());
    CHECK(s.units(0) <= 0.25 * 60);
    CHECK(2 * s.units(0) <= s.units(1));
    CHECK(2 * s.units(0) <= s.units(2));
    // The flat task's units come late, once the others' gains have slowed:
    // right after warm-up the improving tasks are preferred.
    CHECK(s.order()[3] != 0);
    CHECK(s.order()[4] != 0);
}

TEST_CASE("task scheduler: gradient beats round-robin on f1 at the same units") {
    // A heavy task (weight 5) with a long, slow improvement; a flat-ish task;
    // a light task with little to gain.
    std::vector<Task> tasks = plain_tasks(3);
    tasks[1].weight = 5;
    const std::vector<Curve> curves = {{1, 0.2, 3}, {0.3, 2, 15}, {0.1, 0.5, 4}};
    TaskScheduler gradient = run_f1(tasks, curves, 45, greedy());
    TaskScheduler rr = run_f1(tasks, curves, 45, greedy(SchedulePolicy::RoundRobin));
    for (int i = 0; i < 3; i++) CHECK(rr.units(i) == 15);
    CHECK(gradient.units(1) > 15);
    CHECK(gradient.objective_value() < 0.8 * rr.objective_value());
    // Also with the default ε = 0.05.
    TaskScheduler explored = run_f1(tasks, curves, 45, TaskSchedulerOptions{});
    CHECK(explored.objective_value() < rr.objective_value());
}

TEST_CASE("task scheduler: a task without a valid program cannot capture the scheduler") {
    // Task 1 never yields a valid program; its weight of 100 would make any
    // gradient of it dominate (TVM's gradient scheduler got stuck this way).
    std::vector<Task> tasks = plain_tasks(3);
    tasks[1].weight = 100;
    const std::vector<Curve> curves = {{1, 1, 5}, {1, 1, 5, true}, {1, 1, 5}};
    TaskSchedulerOptions o;  // defaults, ε included
    o.max_units_without_program = 4;
    TaskScheduler s(tasks, make_weighted_sum_objective(tasks), o);
    CurveTuner tuner(curves);
    CHECK(s.run(tuner, 30) == 30);
    CHECK(s.units(1) == 4);
    CHECK(s.status(1) == TaskStatus::Infeasible);
    CHECK(s.units(0) + s.units(2) == 26);
    CHECK(s.gradient_estimate(1) == 0);
    CHECK(std::isinf(s.objective_value()));  // f1 cannot be finite without task 1
    for (int i : {0, 2}) CHECK(std::isfinite(s.gradient_estimate(i)));

    SUBCASE("every task infeasible: the run ends early") {
        TaskScheduler all(plain_tasks(2), make_weighted_sum_objective(plain_tasks(2)), o);
        CurveTuner never({{1, 1, 1, true}, {1, 1, 1, true}});
        CHECK(all.run(never, 100) == 8);
        CHECK_FALSE(all.next_task().has_value());
    }
    SUBCASE("a task that finds its first program late is tuned as usual") {
        TaskScheduler late(plain_tasks(2), make_weighted_sum_objective(plain_tasks(2)), greedy());
        late.report(0, kInf);
        late.report(1, 2.0);
        CHECK(late.next_task() == 0);  // no valid program yet: retried first
        late.report(0, 3.0);
        CHECK(late.status(0) == TaskStatus::Active);
        CHECK(late.gradient_estimate(0) < 0);
    }
}

TEST_CASE("task scheduler: early stopping retires a task that stops improving") {
    const std::vector<Task> tasks = plain_tasks(2);
    const std::vector<Curve> curves = {{1, 0, 1}, {0.5, 2, 10}};
    TaskSchedulerOptions o = greedy(SchedulePolicy::RoundRobin);
    o.early_stopping = 3;
    TaskScheduler s = run_f1(tasks, curves, 30, o);
    // The first unit found its latency (an improvement on none), the next
    // three did not improve it.
    CHECK(s.status(0) == TaskStatus::Converged);
    CHECK(s.units(0) == 4);
    CHECK(s.status(1) == TaskStatus::Active);
    CHECK(s.units(1) == 26);
    CHECK_THROWS_AS(s.report(0, 0.5), std::logic_error);

    SUBCASE("gains below min_relative_improvement do not count") {
        TaskSchedulerOptions slow = greedy();
        slow.early_stopping = 3;
        slow.min_relative_improvement = 0.01;
        // Each unit gains about 1e-4 relative.
        const std::vector<Task> one = plain_tasks(1);
        TaskScheduler t(one, make_weighted_sum_objective(one), slow);
        CurveTuner tuner({{1, 0.01, 100}});
        CHECK(t.run(tuner, 10) == 4);  // every task retired: the run ends
        CHECK(t.status(0) == TaskStatus::Converged);
    }
}

TEST_CASE("task scheduler: the gradient estimate follows Ansor's formula") {
    // Tasks 0 and 1 form a family; task 2 has no family and no flop count.
    std::vector<Task> tasks = plain_tasks(3);
    tasks[0].family = tasks[1].family = "conv";
    tasks[0].flops = 1e9;
    tasks[1].flops = 2e9;
    tasks[1].weight = 3;
    TaskScheduler s(tasks, make_weighted_sum_objective(tasks), greedy());
    for (double g : {4.0, 3.0, 2.5, 2.0, 1.8}) s.report(0, g);
    for (double g : {12.0, 11.0, 10.5, 10.0}) s.report(1, g);
    for (double g : {kInf, kInf, 6.0, 5.0}) s.report(2, g);
    // Task 0: t = 5, slope (1.8 − 3)/3 = −0.4; it is the fastest of its
    // family (V = 1e9/1.8), so the similarity guess 2·1.8 − 1.8 = 1.8 loses to
    // −1.8/5 = −0.36. 0.2·−0.4 + 0.8·−0.36 = −0.368.
    CHECK(s.gradient_estimate(0) == doctest::Approx(-0.368));
    // Task 1: t = 4, slope (10 − 12)/3; −g/t = −2.5; similarity
    // 2·2e9/(1e9/1.8) − 10 = 7.2 − 10 = −2.8 wins. Times w = 3.
    CHECK(s.gradient_estimate(1) == doctest::Approx(3 * (0.2 * (-2.0 / 3) + 0.8 * -2.8)));
    // Task 2: the window shrinks to the one unit since its first valid
    // program: slope −1; −g/t = −5/4; no similarity term.
    CHECK(s.gradient_estimate(2) == doctest::Approx(0.2 * -1 + 0.8 * -1.25));
    CHECK(s.next_task() == 1);

    SUBCASE("tasks without a family are similar when their flop counts match") {
        std::vector<Task> same = plain_tasks(2);
        same[0].flops = same[1].flops = 1e9;
        TaskScheduler f(same, make_weighted_sum_objective(same), greedy());
        f.report(0, 1.0);  // 1e9 flop per latency unit
        f.report(1, 8.0);
        // −8/1 against 2·1e9/1e9 − 8 = −6: the average guess is more hopeful.
        CHECK(f.gradient_estimate(1) == doctest::Approx(0.8 * -8));
        f.report(1, 8.0);  // now −8/2 = −4 against −6
        CHECK(f.gradient_estimate(1) == doctest::Approx(0.2 * 0 + 0.8 * -6));
    }
}

TEST_CASE("task scheduler: f2 and f3 match hand computations") {
    // Network 0 = {A (w 2), B (w 1)}, network 1 = {B, C (w 3)}.
    std::vector<Task> tasks(3);
    tasks[0] = {"A", 2, {0}, 0, 2.0, ""};
    tasks[1] = {"B", 1, {0, 1}, 0, 3.0, ""};
    tasks[2] = {"C", 3, {1}, 0, 1.0, ""};
    const std::vector<double> g = {1, 2, 0.5};  // N_0 = 4, N_1 = 3.5
    CHECK(network_latencies(tasks, g) == std::vector<double>{4, 3.5});

    auto f1 = make_weighted_sum_objective(tasks);
    CHECK(f1->value(g) == doctest::Approx(7.5));
    CHECK(f1->gradient(g, 1) == doctest::Approx(2));  // in two networks

    // L = (5, 3): network 0 meets its requirement, network 1 does not.
    auto f2 = make_latency_requirement_objective(tasks, {5, 3});
    CHECK(f2->value(g) == doctest::Approx(5 + 3.5));
    CHECK(f2->gradient(g, 0) == doctest::Approx(0));
    CHECK(f2->gradient(g, 1) == doctest::Approx(1));
    CHECK(f2->gradient(g, 2) == doctest::Approx(3));

    // B = (8, 7): speedups 2 and 2.
    auto f3 = make_geomean_speedup_objective(tasks, {8, 7});
    CHECK(f3->value(g) == doctest::Approx(-2));
    CHECK(f3->gradient(g, 0) == doctest::Approx(2.0 * 2 / 2 * (1 / 4.0)));
    CHECK(f3->gradient(g, 1) == doctest::Approx(2.0 * 1 / 2 * (1 / 4.0 + 1 / 3.5)));
    CHECK(f3->gradient(g, 2) == doctest::Approx(2.0 * 3 / 2 * (1 / 3.5)));
    // The analytic gradient agrees with a finite difference of the value.
    auto numeric = make_custom_objective([&](const std::vector<double> &x) { return f3->value(x); });
    for (int i = 0; i < 3; i++) CHECK(numeric->gradient(g, i) == doctest::Approx(f3->gradient(g, i)).epsilon(1e-4));

    // Without a program for C, network 1 cannot run and leaves the mean.
    const std::vector<double> no_c = {1, 2, kInf};
    CHECK(f3->value(no_c) == doctest::Approx(-2));
    CHECK(f3->gradient(no_c, 1) == doctest::Approx(2.0 * 1 / 1 * (1 / 4.0)));
    CHECK(f3->gradient(no_c, 2) == 0);

    // B_j summed from the tasks' reference latencies: 2·2 + 3, 3 + 3·1.
    CHECK(reference_network_latencies(tasks) == std::vector<double>{7, 6});
    CHECK_THROWS_AS(make_latency_requirement_objective(tasks, {1}), std::invalid_argument);
    CHECK_THROWS_AS(make_geomean_speedup_objective(tasks, {8, 0}), std::invalid_argument);
}

TEST_CASE("task scheduler: a user objective is honoured") {
    const std::vector<Task> tasks = plain_tasks(3);
    const std::vector<Curve> curves = {{1, 2, 5}, {1.2, 2, 6}, {0.5, 3, 5}};

    SUBCASE("with a gradient: only task 1 matters") {
        auto only_1 = make_custom_objective([](const std::vector<double> &g) { return g[1]; },
                                            [](const std::vector<double> &, int i) { return i == 1 ? 1.0 : 0.0; });
        TaskScheduler s(tasks, only_1, greedy());
        CurveTuner tuner(curves);
        s.run(tuner, 20);
        CHECK(s.units(0) == 1);
        CHECK(s.units(2) == 1);
        CHECK(s.units(1) == 18);
    }
    SUBCASE("value only: the slowest task (by a finite difference) gets each unit") {
        auto slowest = make_custom_objective(
            [](const std::vector<double> &g) { return *std::max_element(g.begin(), g.end()); });
        TaskScheduler s(tasks, slowest, greedy());
        CurveTuner tuner(curves);
        s.run(tuner, 3);  // warm-up
        for (int unit = 0; unit < 20; unit++) {
            const std::vector<double> g = s.best_latencies();
            const int expected = (int)(std::max_element(g.begin(), g.end()) - g.begin());
            const std::optional<int> next = s.next_task();
            REQUIRE(next.has_value());
            CHECK(*next == expected);
            s.report(*next, tuner.tune_one_unit(*next));
        }
    }
}

TEST_CASE("task scheduler: a fixed seed gives the same allocation") {
    std::vector<Task> tasks = plain_tasks(4);
    tasks[3].weight = 4;
    const std::vector<Curve> curves = {{1, 1, 5}, {2, 1, 10}, {1, 3, 8}, {0.5, 1, 4}};
    TaskSchedulerOptions o;
    o.epsilon = 0.3;
    o.seed = 7;
    const TaskScheduler a = run_f1(tasks, curves, 60, o);
    const TaskScheduler b = run_f1(tasks, curves, 60, o);
    CHECK(a.order() == b.order());
    o.seed = 8;
    const TaskScheduler c = run_f1(tasks, curves, 60, o);
    CHECK(a.order() != c.order());
}

TEST_CASE("task scheduler: bad tasks and options are rejected") {
    const std::vector<Task> ok = plain_tasks(2);
    auto f1 = make_weighted_sum_objective(ok);
    std::vector<Task> bad = ok;
    bad[1].weight = 0;
    CHECK_THROWS_AS(TaskScheduler(bad, f1), std::invalid_argument);
    bad = ok;
    bad[0].networks = {0, 0};
    CHECK_THROWS_AS(TaskScheduler(bad, f1), std::invalid_argument);
    CHECK_THROWS_AS(TaskScheduler({}, f1), std::invalid_argument);
    CHECK_THROWS_AS(TaskScheduler(ok, nullptr), std::invalid_argument);
    TaskSchedulerOptions o;
    o.alpha = 1.5;
    CHECK_THROWS_AS(TaskScheduler(ok, f1, o), std::invalid_argument);
    o = {};
    o.max_units_without_program = 0;
    CHECK_THROWS_AS(TaskScheduler(ok, f1, o), std::invalid_argument);
    TaskScheduler s(ok, f1);
    CHECK_THROWS_AS(s.report(0, 0.0), std::invalid_argument);
    CHECK_THROWS_AS(s.report(2, 1.0), std::out_of_range);
    s.report(0, 2.0);
    s.report(0, 3.0);  // worse than the best: the best stays
    CHECK(s.history(0) == std::vector<double>{2.0, 2.0});
}
