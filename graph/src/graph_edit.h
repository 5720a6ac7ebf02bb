#pragma once
// Whole-graph edits the graph optimiser needs: rebuilding a graph from an
// edited node list (topological order restored, every shape inferred and
// checked again), fresh names, a name-independent structural hash, and the
// graph back as the JSON file format (graph_json.h) so that an optimised
// graph can be written and loaded by ansor_network_run.
#include "graph_ir.h"

#include <set>

namespace ansor_graph {

// A graph with `g`'s name, inputs, weights and outputs and the nodes
// `nodes` (in any order where a topological one exists; the original
// relative order is kept where the dependences allow). Every node is
// inferred again; a cycle, an undefined tensor or a shape mismatch is a
// GraphError naming the node.
Graph rebuild_graph(const Graph &g, const std::vector<Node> &nodes);

// Every node and tensor name in use.
std::set<std::string> used_names(const Graph &g);
// `prefix` followed by the smallest number that makes it unused in `taken`;
// the result is added to `taken`.
std::string fresh_name(std::set<std::string> &taken, const std::string &prefix);

// A hash of what the graph computes, independent of the names of its nodes
// and intermediate tensors: each tensor hashes its producer's operator,
// attributes and input hashes (inputs and weights hash their names), and
// the graph hashes its outputs in order and the multiset of its nodes.
uint64_t canonical_hash(const Graph &g);

// The graph in the file format. Names with '@' (the loader's layout
// conversions, reserved in files) are written with '@' replaced by "__at_"
// so that the file loads again; the conversion nodes are written as
// ordinary transpose nodes with their layout attribute.
nlohmann::json graph_to_json(const Graph &g);
void save_graph(const Graph &g, const std::string &path);

// The consumers of each tensor: node indices, in node order.
std::map<std::string, std::vector<int>> consumers_of(const Graph &g);

}  // namespace ansor_graph
