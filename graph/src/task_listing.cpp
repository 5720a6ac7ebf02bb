#include "task_listing.h"

#include <cctype>

namespace ansor_graph {

namespace {

// Task params as JSON: integers as numbers, anything else (eps) as a string.
nlohmann::json param_json(const ansor::GeneratorParamValues &params) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto &[k, v] : params) {
        bool integer = !v.empty() && (std::isdigit((unsigned char)v[0]) || v[0] == '-');
        for (size_t i = 1; i < v.size(); i++) integer = integer && std::isdigit((unsigned char)v[i]);
        if (integer) j[k] = std::stoll(v);
        else j[k] = v;
    }
    return j;
}

}  // namespace

nlohmann::json task_file_of(const Graph &g) {
    LoweredGraph l = lower_graph(g);
    std::vector<std::string> keys;
    std::map<std::string, nlohmann::json> tasks;
    for (const KernelCall &c : l.calls) {
        if (c.on_weights) continue;  // made once at load: nothing to tune
        const std::string key = c.key();
        if (tasks.count(key)) {
            tasks[key]["weight"] = tasks[key]["weight"].get<int>() + 1;
            continue;
        }
        keys.push_back(key);
        // Named after the first node it runs for; a number keeps names unique.
        tasks[key] = {{"name", std::to_string(keys.size() - 1) + "_" + c.node + "_" + c.generator},
                      {"generator", c.generator},
                      {"params", param_json(c.params)},
                      {"weight", 1}};
    }
    nlohmann::json out;
    out["description"] = "The distinct kernels of graph '" + g.name + "' (ansor_network_run --list-tasks).";
    out["network"] = g.name;
    out["tasks"] = nlohmann::json::array();
    for (const auto &k : keys) out["tasks"].push_back(tasks[k]);
    return out;
}

}  // namespace ansor_graph
