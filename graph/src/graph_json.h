#pragma once
// The graph file format (docs/graph.md has the full description):
//
//   {
//     "name": "tiny_cnn",                      // required
//     "description": "...",                    // optional, ignored
//     "inputs":  [{"name": "x", "shape": [1, 8, 8, 3], "layout": "NHWC"}],
//     "weights": [{"name": "w1", "shape": [3, 3, 3, 8]},              // init "fan_in"
//                 {"name": "var1", "shape": [8], "init": "uniform", "range": [0.5, 1.5]}],
//     "nodes": [{"name": "conv1", "op": "conv2d", "inputs": ["x", "w1", "b1"], "outputs": ["c1"],
//                "attrs": {"stride": 1, "padding": 1, "activation": "relu"}}],
//     "outputs": ["c1"]
//   }
//
// Weights carry shapes only; their values (and the inputs') are drawn from a
// seed when the graph is run (tensor_values.h). Layouts: "NHWC", "NCHW",
// "plain" (the default for everything but 4-D inputs, which default to NHWC).
// Nodes are listed in an order where each node's inputs already exist; every
// tensor is written once. Names may not contain '@' (reserved for the
// tensors the loader and the executor add). Loading checks every field and infers and checks
// every shape; the first problem is a GraphError naming the file, the node
// (or input/weight) and the field. NCHW tensors fed to an operator that
// needs NHWC get a transpose node inserted before it (named
// "<tensor>@to_nhwc", writing "<tensor>@nhwc").
#include "graph_ir.h"

namespace ansor_graph {

Graph parse_graph(const nlohmann::json &j, const std::string &origin);
Graph load_graph(const std::string &path);

}  // namespace ansor_graph
