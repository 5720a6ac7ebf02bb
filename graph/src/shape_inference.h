#pragma once
// Shape and layout inference for one node: checks the count, shapes and
// layouts of its inputs against its operator and attributes and adds its
// output tensors to the graph. Errors are GraphErrors prefixed by `where`.
#include "graph_ir.h"

namespace ansor_graph {

// The layout node `n` needs on input `i`, or kPlain where any will do
// (a conv2d's data and residual: its `layout` attribute).
Layout required_layout(const Node &n, int input_index, const std::string &where);

void infer_node(Graph &g, const Node &n, const std::string &where);

}  // namespace ansor_graph
