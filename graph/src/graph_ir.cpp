#include "graph_ir.h"

namespace ansor_graph {

std::string layout_name(Layout l) {
    switch (l) {
    case Layout::kPlain: return "plain";
    case Layout::kNHWC: return "NHWC";
    case Layout::kNCHW: return "NCHW";
    }
    return "?";
}

Layout parse_layout(const std::string &s, const std::string &where) {
    if (s == "plain") return Layout::kPlain;
    if (s == "NHWC") return Layout::kNHWC;
    if (s == "NCHW") return Layout::kNCHW;
    throw GraphError(where + ": unknown layout '" + s + "' (NHWC, NCHW, plain)");
}

std::vector<int> layout_conversion_perm(Layout from, Layout to) {
    if (from == Layout::kNCHW && to == Layout::kNHWC) return {0, 2, 3, 1};
    if (from == Layout::kNHWC && to == Layout::kNCHW) return {0, 3, 1, 2};
    throw GraphError("no layout conversion from " + layout_name(from) + " to " + layout_name(to));
}

Node layout_conversion_node(const std::string &name, const std::string &source, const std::string &result,
                            Layout from, Layout to) {
    Node t;
    t.name = name;
    t.op = "transpose";
    t.attrs = {{"perm", layout_conversion_perm(from, to)}, {"layout", layout_name(to)}};
    t.inputs = {source};
    t.outputs = {result};
    return t;
}

std::optional<std::pair<std::string, Layout>> layout_conversion_source(const Node &n) {
    if (n.op != "transpose" || n.inputs.size() != 1 || !n.attrs.contains("layout") || !n.attrs.contains("perm"))
        return std::nullopt;
    for (Layout from : {Layout::kNCHW, Layout::kNHWC}) {
        const Layout to = from == Layout::kNCHW ? Layout::kNHWC : Layout::kNCHW;
        if (n.attrs["layout"] == layout_name(to) && n.attrs["perm"] == nlohmann::json(layout_conversion_perm(from, to)))
            return std::make_pair(n.inputs[0], from);
    }
    return std::nullopt;
}

int64_t element_count(const Shape &s) {
    int64_t n = 1;
    for (int d : s) n *= d;
    return n;
}

std::string shape_string(const Shape &s) {
    std::string out = "[";
    for (size_t i = 0; i < s.size(); i++) out += (i ? ", " : "") + std::to_string(s[i]);
    return out + "]";
}

const TensorInfo &Graph::tensor(const std::string &name) const {
    auto it = tensors.find(name);
    if (it == tensors.end()) throw GraphError("graph '" + this->name + "': no tensor '" + name + "'");
    return it->second;
}

const std::vector<std::string> &known_ops() {
    static const std::vector<std::string> ops = {
        "conv2d",  "conv2d_transpose", "dense",      "matmul",     "batch_matmul", "add",       "mul",     "relu",
        "relu6",   "gelu",       "sigmoid",    "concat",       "split",     "transpose", "reshape",
        "max_pool2d", "avg_pool2d", "batch_norm", "softmax",   "layer_norm", "enlarge"};
    return ops;
}

}  // namespace ansor_graph
