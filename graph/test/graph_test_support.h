#pragma once
// Helpers of the graph tests: one-node graphs written in code, and running
// a graph on both the reference and the Halide executor.
#include "graph_json.h"
#include "halide_executor.h"
#include "output_check.h"
#include "reference_ops.h"

#include <doctest/doctest.h>

namespace graph_test {

using ansor_graph::Graph;
using ansor_graph::Shape;
using nlohmann::json;

struct Declared {
    std::string name;
    Shape shape;
};

// A graph of one node: `op` reading `inputs` (graph inputs) then `weights`
// (fan_in weights), writing y0.. y<outputs-1> (y with one output).
inline json one_node_graph(const std::string &op, const std::vector<Declared> &inputs,
                           const std::vector<Declared> &weights, json attrs = json::object(), int outputs = 1) {
    json j = {{"name", "one_" + op}, {"inputs", json::array()}, {"weights", json::array()}};
    json node = {{"name", "n"}, {"op", op}, {"inputs", json::array()}, {"outputs", json::array()}, {"attrs", attrs}};
    for (const auto &d : inputs) {
        j["inputs"].push_back({{"name", d.name}, {"shape", d.shape}, {"layout", "plain"}});
        node["inputs"].push_back(d.name);
    }
    for (const auto &d : weights) {
        j["weights"].push_back({{"name", d.name}, {"shape", d.shape}});
        node["inputs"].push_back(d.name);
    }
    json outs = json::array();
    for (int i = 0; i < outputs; i++) outs.push_back(outputs == 1 ? "y" : "y" + std::to_string(i));
    node["outputs"] = outs;
    j["nodes"] = json::array({node});
    j["outputs"] = outs;
    return j;
}

// Runs `g` on the reference and on the executor (default schedules) and
// returns the largest relative error over every tensor the graph computes.
inline double worst_error(const Graph &g, uint64_t seed = 7) {
    ansor_graph::TensorMap ref = ansor_graph::declared_values(g, seed);
    ansor_graph::GraphExecutor exec(g, {});
    exec.bind(ref);
    exec.run();
    ansor_graph::run_reference(g, ref);
    double worst = 0;
    for (const auto &[name, info] : g.tensors) {
        if (info.kind != ansor_graph::TensorKind::kIntermediate) continue;
        ansor_graph::TensorCheck c = ansor_graph::check_tensor(name, exec.tensors().at(name), ref.at(name));
        INFO("tensor " << name << " error " << c.error << " scale " << c.scale);
        CHECK(c.scale > 0);  // an all-zero tensor would make the comparison vacuous
        worst = std::max(worst, c.error);
    }
    return worst;
}

}  // namespace graph_test
