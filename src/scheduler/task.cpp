#include "scheduler/task.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <stdexcept>

namespace ansor {

namespace {

[[noreturn]] void bad_task(size_t i, const Task &task, const std::string &what) {
    throw std::invalid_argument("task " + std::to_string(i) + " (" + task.name + "): " + what);
}

}  // namespace

void validate_tasks(const std::vector<Task> &tasks) {
    if (tasks.empty()) throw std::invalid_argument("the task scheduler needs at least one task");
    for (size_t i = 0; i < tasks.size(); i++) {
        const Task &t = tasks[i];
        if (!(t.weight > 0) || !std::isfinite(t.weight)) bad_task(i, t, "weight must be positive and finite");
        if (!(t.flops >= 0) || !std::isfinite(t.flops)) bad_task(i, t, "flop count must be non-negative and finite");
        if (t.networks.empty()) bad_task(i, t, "belongs to no network");
        std::set<int> seen;
        for (int j : t.networks) {
            if (j < 0) bad_task(i, t, "negative network id");
            if (!seen.insert(j).second) bad_task(i, t, "network " + std::to_string(j) + " listed twice");
        }
        if (t.reference_latency && !(*t.reference_latency > 0))
            bad_task(i, t, "reference latency must be positive");
    }
}

int network_count(const std::vector<Task> &tasks) {
    int m = 0;
    for (const Task &t : tasks)
        for (int j : t.networks) m = std::max(m, j + 1);
    return m;
}

std::vector<double> network_latencies(const std::vector<Task> &tasks, const std::vector<double> &latencies) {
    if (latencies.size() != tasks.size()) throw std::invalid_argument("one latency per task expected");
    std::vector<double> sum(network_count(tasks), 0.0);
    for (size_t i = 0; i < tasks.size(); i++)
        for (int j : tasks[i].networks) sum[j] += tasks[i].weight * latencies[i];
    return sum;
}

std::vector<double> reference_network_latencies(const std::vector<Task> &tasks) {
    std::vector<double> reference(tasks.size());
    for (size_t i = 0; i < tasks.size(); i++) {
        if (!tasks[i].reference_latency) bad_task(i, tasks[i], "no reference latency");
        reference[i] = *tasks[i].reference_latency;
    }
    return network_latencies(tasks, reference);
}

std::string similarity_key(const Task &task) {
    if (!task.family.empty()) return "family:" + task.family;
    if (task.flops > 0) {
        char buf[40];
        std::snprintf(buf, sizeof buf, "flops:%.17g", task.flops);
        return buf;
    }
    return "";
}

}  // namespace ansor
