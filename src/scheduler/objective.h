#pragma once
// What the task scheduler minimises: f(g_1, …, g_n), with g_i the
// best latency found so far for task i (+inf while task i has no valid
// program). The scheduler needs the value and ∂f/∂g_i.
//
//   f1 = Σ_j Σ_{i∈S(j)} w_i g_i                 every network run once, in sequence
//   f2 = Σ_j max(Σ_{i∈S(j)} w_i g_i, L_j)       no gain below network j's requirement L_j
//   f3 = −(Π_j B_j / Σ_{i∈S(j)} w_i g_i)^{1/m}  geometric-mean speedup over references B_j
//   f4 = f1 with per-task early stopping: not an Objective here but the
//        scheduler's `early_stopping` option (see docs/task_scheduler.md)
//
// Users give their own with make_custom_objective.
#include "scheduler/task.h"

#include <functional>
#include <memory>
#include <vector>

namespace ansor {

class Objective {
public:
    virtual ~Objective() = default;
    // f at these latencies (one per task; +inf for a task without a valid program).
    virtual double value(const std::vector<double> &latencies) const = 0;
    // ∂f/∂g_task at these latencies. The scheduler treats a non-finite
    // answer as 0 (the task gets no preference), so an objective need not
    // guard against every +inf.
    virtual double gradient(const std::vector<double> &latencies, int task) const = 0;
};

// f1. ∂f1/∂g_i = w_i · (number of networks of task i).
std::shared_ptr<const Objective> make_weighted_sum_objective(const std::vector<Task> &tasks);

// f2 with requirement[j] = L_j (one per network). ∂f2/∂g_i sums w_i over the
// networks of task i that are slower than their requirement (at exactly L_j
// the network counts as meeting it: gradient 0).
std::shared_ptr<const Objective> make_latency_requirement_objective(const std::vector<Task> &tasks,
                                                                    std::vector<double> requirement);

// f3 with reference[j] = B_j (one per network; reference_network_latencies()
// sums them from the tasks' reference latencies). A network with a task
// without a valid program cannot run: it is left out of the mean (m counts
// only the others) rather than making the speedup, and every gradient, 0.
// With no network left, the value and gradients are 0.
//   ∂f3/∂g_i = G · w_i / m · Σ_{j∋i} 1/N_j, G the geometric-mean speedup,
//   N_j the latency of network j.
std::shared_ptr<const Objective> make_geomean_speedup_objective(const std::vector<Task> &tasks,
                                                                std::vector<double> reference);

using ObjectiveValue = std::function<double(const std::vector<double> &latencies)>;
using ObjectiveGradient = std::function<double(const std::vector<double> &latencies, int task)>;

// A user's objective. Without a gradient, ∂f/∂g_i is estimated by a backward
// difference (f(g) − f(g − δ·e_i)) / δ with δ = 1e-5 · g_i (f need only be
// defined at latencies below the current ones).
std::shared_ptr<const Objective> make_custom_objective(ObjectiveValue value, ObjectiveGradient gradient = {});

}  // namespace ansor
