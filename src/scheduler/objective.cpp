#include "scheduler/objective.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace ansor {

namespace {

// One value per network, and every network has a task (a network without
// tasks would have latency 0: no requirement or speedup means anything).
// Requirements may be 0 (none); reference latencies must be positive.
void check_per_network(const std::vector<Task> &tasks, const std::vector<double> &per_network, const char *what,
                       bool positive) {
    validate_tasks(tasks);
    const int m = network_count(tasks);
    if ((int)per_network.size() != m)
        throw std::invalid_argument(std::string(what) + ": " + std::to_string(per_network.size()) + " values for " +
                                    std::to_string(m) + " networks");
    std::vector<bool> used(m, false);
    for (const Task &t : tasks)
        for (int j : t.networks) used[j] = true;
    for (int j = 0; j < m; j++) {
        if (!used[j]) throw std::invalid_argument(std::string(what) + ": network " + std::to_string(j) + " has no task");
        const double v = per_network[j];
        if (!(positive ? v > 0 : v >= 0) || !std::isfinite(v))
            throw std::invalid_argument(std::string(what) + ": bad value for network " + std::to_string(j));
    }
}

void check_task_index(const std::vector<Task> &tasks, const std::vector<double> &latencies, int task) {
    if (latencies.size() != tasks.size()) throw std::invalid_argument("one latency per task expected");
    if (task < 0 || task >= (int)tasks.size()) throw std::out_of_range("task index " + std::to_string(task));
}

class WeightedSum : public Objective {
public:
    explicit WeightedSum(std::vector<Task> tasks) : tasks_(std::move(tasks)) { validate_tasks(tasks_); }

    double value(const std::vector<double> &latencies) const override {
        double f = 0;
        for (double n : network_latencies(tasks_, latencies)) f += n;
        return f;
    }
    double gradient(const std::vector<double> &latencies, int task) const override {
        check_task_index(tasks_, latencies, task);
        return tasks_[task].weight * (double)tasks_[task].networks.size();
    }

private:
    std::vector<Task> tasks_;
};

class LatencyRequirement : public Objective {
public:
    LatencyRequirement(std::vector<Task> tasks, std::vector<double> requirement)
        : tasks_(std::move(tasks)), requirement_(std::move(requirement)) {
        check_per_network(tasks_, requirement_, "latency requirements", false);
    }

    double value(const std::vector<double> &latencies) const override {
        const std::vector<double> n = network_latencies(tasks_, latencies);
        double f = 0;
        for (size_t j = 0; j < n.size(); j++) f += std::max(n[j], requirement_[j]);
        return f;
    }
    double gradient(const std::vector<double> &latencies, int task) const override {
        check_task_index(tasks_, latencies, task);
        const std::vector<double> n = network_latencies(tasks_, latencies);
        double d = 0;
        for (int j : tasks_[task].networks)
            if (n[j] > requirement_[j]) d += tasks_[task].weight;
        return d;
    }

private:
    std::vector<Task> tasks_;
    std::vector<double> requirement_;
};

class GeomeanSpeedup : public Objective {
public:
    GeomeanSpeedup(std::vector<Task> tasks, std::vector<double> reference)
        : tasks_(std::move(tasks)), reference_(std::move(reference)) {
        check_per_network(tasks_, reference_, "reference latencies", true);
    }

    double value(const std::vector<double> &latencies) const override {
        return -speedup(network_latencies(tasks_, latencies));
    }
    double gradient(const std::vector<double> &latencies, int task) const override {
        check_task_index(tasks_, latencies, task);
        const std::vector<double> n = network_latencies(tasks_, latencies);
        const double g = speedup(n);
        const int m = runnable(n);
        if (m == 0) return 0;
        // ∂(−G)/∂g_i = −G · (1/m) · Σ_{j∋i} ∂log(B_j/N_j)/∂g_i = G/m · Σ_{j∋i} w_i/N_j.
        double d = 0;
        for (int j : tasks_[task].networks)
            if (std::isfinite(n[j])) d += tasks_[task].weight / n[j];
        return g * d / m;
    }

private:
    static int runnable(const std::vector<double> &n) {
        int m = 0;
        for (double x : n) m += std::isfinite(x) ? 1 : 0;
        return m;
    }
    // G over the networks that can run (finite latency); 0 if none can.
    double speedup(const std::vector<double> &n) const {
        const int m = runnable(n);
        if (m == 0) return 0;
        double log_sum = 0;  // in logs: no overflow with many networks
        for (size_t j = 0; j < n.size(); j++)
            if (std::isfinite(n[j])) log_sum += std::log(reference_[j] / n[j]);
        return std::exp(log_sum / m);
    }

    std::vector<Task> tasks_;
    std::vector<double> reference_;
};

class Custom : public Objective {
public:
    Custom(ObjectiveValue value, ObjectiveGradient gradient) : value_(std::move(value)), gradient_(std::move(gradient)) {
        if (!value_) throw std::invalid_argument("a custom objective needs a value function");
    }

    double value(const std::vector<double> &latencies) const override { return value_(latencies); }
    double gradient(const std::vector<double> &latencies, int task) const override {
        if (task < 0 || task >= (int)latencies.size()) throw std::out_of_range("task index " + std::to_string(task));
        if (gradient_) return gradient_(latencies, task);
        // Backward difference: only latencies below the current ones are
        // asked for, as tuning only ever lowers them.
        const double delta = 1e-5 * latencies[task];
        if (!(delta > 0) || !std::isfinite(delta)) return std::numeric_limits<double>::quiet_NaN();
        std::vector<double> lower = latencies;
        lower[task] -= delta;
        return (value_(latencies) - value_(lower)) / delta;
    }

private:
    ObjectiveValue value_;
    ObjectiveGradient gradient_;
};

}  // namespace

std::shared_ptr<const Objective> make_weighted_sum_objective(const std::vector<Task> &tasks) {
    return std::make_shared<WeightedSum>(tasks);
}

std::shared_ptr<const Objective> make_latency_requirement_objective(const std::vector<Task> &tasks,
                                                                    std::vector<double> requirement) {
    return std::make_shared<LatencyRequirement>(tasks, std::move(requirement));
}

std::shared_ptr<const Objective> make_geomean_speedup_objective(const std::vector<Task> &tasks,
                                                                std::vector<double> reference) {
    return std::make_shared<GeomeanSpeedup>(tasks, std::move(reference));
}

std::shared_ptr<const Objective> make_custom_objective(ObjectiveValue value, ObjectiveGradient gradient) {
    return std::make_shared<Custom>(std::move(value), std::move(gradient));
}

}  // namespace ansor
