#pragma once
// The network graph IR: named tensors with shapes and a layout tag, and
// operator nodes that read and write them. Every tensor is written once
// (by a node, or it is a graph input or weight). The JSON file format that
// describes a graph is in graph_json.h and docs/graph.md.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ansor_graph {

// How a tensor's dimensions are to be read. Convolutions, pooling and batch
// norm work on NHWC (as the project's generators do); a graph may feed them
// NCHW tensors, and load_graph() inserts the layout conversion.
enum class Layout { kPlain, kNHWC, kNCHW };
std::string layout_name(Layout l);
Layout parse_layout(const std::string &s, const std::string &where);
// The transpose perm (output dim d is input dim perm[d]) that turns a 4-D
// tensor in layout `from` into layout `to` (both NHWC or NCHW).
std::vector<int> layout_conversion_perm(Layout from, Layout to);

using Shape = std::vector<int>;  // row-major, outermost first
int64_t element_count(const Shape &s);
std::string shape_string(const Shape &s);

enum class TensorKind { kInput, kWeight, kIntermediate };

struct TensorInfo {
    std::string name;
    Shape shape;
    Layout layout = Layout::kPlain;
    TensorKind kind = TensorKind::kIntermediate;
    // Weights only: how values are drawn (weight_values.h).
    std::string init = "fan_in";
    float low = -1, high = 1;  // for init "uniform"
};

struct Node {
    std::string name;
    std::string op;
    nlohmann::json attrs = nlohmann::json::object();
    std::vector<std::string> inputs, outputs;
};

// A transpose node `name` converting tensor `source`, in layout `from`, to
// tensor `result` in layout `to` (the loader's and the optimiser's layout
// conversions).
Node layout_conversion_node(const std::string &name, const std::string &source, const std::string &result,
                            Layout from, Layout to);
// For such a conversion node: its source tensor and the layout it converts
// from; nullopt for any other node.
std::optional<std::pair<std::string, Layout>> layout_conversion_source(const Node &n);

struct Graph {
    std::string name;
    std::map<std::string, TensorInfo> tensors;
    std::vector<std::string> inputs, weights, outputs;
    std::vector<Node> nodes;  // in an order where every input is ready
    const TensorInfo &tensor(const std::string &name) const;
};

// Every malformed file and shape mismatch is reported as this, naming the
// file, the node and the field.
struct GraphError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The operators a node may name, in the order docs/graph.md lists them.
const std::vector<std::string> &known_ops();

}  // namespace ansor_graph
