#include "network/network_objective.h"

#include "util/errors.h"

#include <stdexcept>

namespace ansor {

NetworkObjective parse_network_objective(const std::string &name) {
    if (name == "f1") return NetworkObjective::F1;
    if (name == "f2") return NetworkObjective::F2;
    if (name == "f3") return NetworkObjective::F3;
    if (name == "f4") return NetworkObjective::F4;
    throw UserError("unknown objective '" + name + "' (use f1, f2, f3 or f4)");
}

const char *network_objective_name(NetworkObjective objective) {
    switch (objective) {
    case NetworkObjective::F1: return "f1";
    case NetworkObjective::F2: return "f2";
    case NetworkObjective::F3: return "f3";
    case NetworkObjective::F4: return "f4";
    }
    return "?";
}

std::shared_ptr<const Objective> make_network_objective(NetworkObjective objective, const std::vector<Task> &tasks,
                                                        const TaskFile &file) {
    if (objective == NetworkObjective::F1 || objective == NetworkObjective::F4) return make_weighted_sum_objective(tasks);
    if (objective == NetworkObjective::F2) {
        std::vector<double> requirements;
        for (const auto &n : file.networks) {
            if (!n.latency_requirement_ms)
                throw UserError(file.path + ": --objective f2 needs networks." + n.name + ".latency_requirement_ms");
            requirements.push_back(*n.latency_requirement_ms);
        }
        return make_latency_requirement_objective(tasks, requirements);
    }
    try {
        return make_geomean_speedup_objective(tasks, reference_network_latencies(tasks));
    } catch (const std::invalid_argument &e) {
        throw UserError(file.path + ": --objective f3 needs reference_ms on every task (" + e.what() + ")");
    }
}

}  // namespace ansor
