#pragma once
// A tuning task as the task scheduler sees it: one pipeline
// (subgraph) to find a fast program for, where it occurs, and what is known
// about it beforehand. Nothing here depends on Halide or on measurement.
#include <optional>
#include <string>
#include <vector>

namespace ansor {

struct Task {
    std::string name;
    // w_i: how often the task occurs in each of its networks. A task that
    // belongs to several networks counts with this weight in each.
    double weight = 1;
    // The networks the task belongs to (S(j) holds task i iff j is listed
    // here). Ids run from 0; the default puts every task in one network.
    std::vector<int> networks = {0};
    // C_i: floating-point operations of one run; 0 = unknown (the task then
    // takes no part in the similarity estimate).
    double flops = 0;
    // The latency of a reference implementation of this task (e.g. another
    // compiler's), in the same unit as the tuner's latencies. Networks' reference
    // latencies B_j for f3 can be summed from these.
    std::optional<double> reference_latency;
    // Tasks with the same family key are similar (N(i) in Ansor's task scheduler; FamilySeer's
    // families). Without a key, tasks with the same flop count are similar.
    std::string family;
};

// Throws std::invalid_argument naming the task when a field is out of range:
// no task, a weight or flop count that is negative, zero weight, no network,
// a negative or repeated network id, a non-positive reference latency.
void validate_tasks(const std::vector<Task> &tasks);

// m: one more than the largest network id.
int network_count(const std::vector<Task> &tasks);

// N_j = Σ_{i∈S(j)} w_i · g_i for every network j (+inf when one of its tasks has
// no valid program yet, i.e. latency +inf).
std::vector<double> network_latencies(const std::vector<Task> &tasks, const std::vector<double> &latencies);

// B_j = Σ_{i∈S(j)} w_i · reference_latency_i; throws std::invalid_argument
// when a task of some network has no reference latency.
std::vector<double> reference_network_latencies(const std::vector<Task> &tasks);

// The key that decides similarity: the family when set, else the flop count
// (tasks without a family and with the same flop count are similar); empty
// when the task has neither (it is similar to no other task).
std::string similarity_key(const Task &task);

}  // namespace ansor
