#include "layout_moves.h"

#include "graph_edit.h"
#include "op_attrs.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <set>

namespace ansor_graph {

namespace {

bool is_elementwise(const std::string &op) {
    return op == "add" || op == "mul" || op == "relu" || op == "relu6" || op == "gelu" || op == "sigmoid";
}

bool is_4d_layout(Layout l) { return l == Layout::kNHWC || l == Layout::kNCHW; }

Layout other(Layout l) { return l == Layout::kNHWC ? Layout::kNCHW : Layout::kNHWC; }

// The inputs of `n` that hold data in its layout (weights and biases keep theirs).
std::vector<size_t> data_inputs(const Node &n) {
    if (n.op == "conv2d") return n.inputs.size() == 4 ? std::vector<size_t>{0, 3} : std::vector<size_t>{0};
    std::vector<size_t> all(n.inputs.size());
    std::iota(all.begin(), all.end(), 0);
    return all;
}

std::string suffix(Layout l) { return l == Layout::kNCHW ? "nchw" : "nhwc"; }

}  // namespace

Layout flippable_layout(const Graph &g, const Node &n) {
    if (n.op == "conv2d") {
        const ConvAttrs a = conv_attrs(n, "node '" + n.name + "'");
        const Shape &w = g.tensor(n.inputs[1]).shape;
        if (!is_square_dense_conv(a, w[0], w[1])) return Layout::kPlain;
        return g.tensor(n.inputs[0]).layout == a.layout ? a.layout : Layout::kPlain;
    }
    if (!is_elementwise(n.op)) return Layout::kPlain;
    const Layout l = g.tensor(n.inputs[0]).layout;
    if (!is_4d_layout(l)) return Layout::kPlain;
    for (const auto &in : n.inputs)
        if (g.tensor(in).layout != l) return Layout::kPlain;
    return l;
}

std::string LayoutMove::describe(const Graph &g) const {
    std::string head = "layout " + layout_name(from) + " -> " + layout_name(to) + ": ";
    if (nodes.size() == 1) return head + g.nodes[nodes[0]].op + " '" + g.nodes[nodes[0]].name + "'";
    int convs = 0;
    for (int i : nodes) convs += g.nodes[i].op == "conv2d";
    return head + std::to_string(nodes.size()) + " nodes (" + std::to_string(convs) + " conv2d) from '" +
           g.nodes[nodes[0]].name + "'";
}

std::vector<LayoutMove> layout_moves(const Graph &g) {
    const size_t count = g.nodes.size();
    std::vector<Layout> layout(count);
    std::map<std::string, int> producer;
    for (size_t i = 0; i < count; i++) {
        layout[i] = flippable_layout(g, g.nodes[i]);
        for (const auto &t : g.nodes[i].outputs) producer[t] = (int)i;
    }
    // Regions: union-find over data edges between flippable nodes of one layout.
    std::vector<int> parent(count);
    std::iota(parent.begin(), parent.end(), 0);
    std::function<int(int)> root = [&](int i) { return parent[i] == i ? i : parent[i] = root(parent[i]); };
    for (size_t i = 0; i < count; i++) {
        if (layout[i] == Layout::kPlain) continue;
        for (size_t k : data_inputs(g.nodes[i])) {
            auto p = producer.find(g.nodes[i].inputs[k]);
            if (p != producer.end() && layout[p->second] == layout[i]) parent[root((int)i)] = root(p->second);
        }
    }
    std::vector<LayoutMove> moves;
    std::map<int, LayoutMove> regions;
    for (size_t i = 0; i < count; i++) {
        if (layout[i] == Layout::kPlain) continue;
        if (g.nodes[i].op == "conv2d") moves.push_back({{(int)i}, layout[i], other(layout[i])});
        LayoutMove &r = regions[root((int)i)];
        r.nodes.push_back((int)i);
        r.from = layout[i];
        r.to = other(layout[i]);
    }
    for (auto &[rootnode, r] : regions) {
        const bool has_conv = std::any_of(r.nodes.begin(), r.nodes.end(), [&](int i) { return g.nodes[i].op == "conv2d"; });
        if (has_conv && r.nodes.size() > 1) moves.push_back(r);
    }
    return moves;
}

Graph apply_layout_move(const Graph &g, const LayoutMove &m) {
    const std::set<int> flipped(m.nodes.begin(), m.nodes.end());
    for (int i : m.nodes)
        if (flippable_layout(g, g.nodes[i]) != m.from)
            throw GraphError("layout move: node '" + g.nodes[i].name + "' is not a " + layout_name(m.from) +
                             " node that can change layout");
    std::set<std::string> taken = used_names(g);
    // tensor -> the tensor it was converted from, for every conversion
    // (existing or added) whose source is in layout `to`.
    std::map<std::string, std::string> from_target_layout;
    std::map<std::string, std::string> converted;  // tensor in `from` -> its conversion to `to`
    std::vector<Node> nodes;
    for (size_t i = 0; i < g.nodes.size(); i++) {
        const Node &orig = g.nodes[i];
        if (auto src = layout_conversion_source(orig); src && src->second == m.to && g.tensor(src->first).layout == m.to)
            from_target_layout[orig.outputs[0]] = src->first;
        if (!flipped.count((int)i)) {
            nodes.push_back(orig);
            continue;
        }
        Node n = orig;
        for (size_t k : data_inputs(n)) {
            const std::string &u = n.inputs[k];
            auto direct = from_target_layout.find(u);
            if (direct != from_target_layout.end()) {
                n.inputs[k] = direct->second;
                continue;
            }
            auto done = converted.find(u);
            if (done == converted.end()) {
                const std::string t = fresh_name(taken, u + "_" + suffix(m.to));
                nodes.push_back(layout_conversion_node(fresh_name(taken, u + "_to_" + suffix(m.to)), u, t, m.from, m.to));
                done = converted.emplace(u, t).first;
            }
            n.inputs[k] = done->second;
        }
        if (n.op == "conv2d") {
            if (m.to == Layout::kNHWC) n.attrs.erase("layout");  // the default, so flipping back restores the node
            else n.attrs["layout"] = layout_name(m.to);
        }
        for (auto &out : n.outputs) {
            const std::string original = out;
            out = fresh_name(taken, original + "_" + suffix(m.to));
            nodes.push_back(layout_conversion_node(fresh_name(taken, original + "_to_" + suffix(m.from)), out,
                                                   original, m.to, m.from));
            from_target_layout[original] = out;
        }
        nodes.push_back(n);
    }
    // A conversion of a conversion back to the first one's source: its
    // readers read the source (a region flipped back restores the graph).
    std::map<std::string, std::pair<std::string, Layout>> conversion_of;  // output -> {source, source layout}
    for (const Node &n : nodes)
        if (auto src = layout_conversion_source(n)) conversion_of[n.outputs[0]] = *src;
    for (Node &n : nodes) {
        for (auto &in : n.inputs) {
            auto second = conversion_of.find(in);
            if (second == conversion_of.end()) continue;
            auto first = conversion_of.find(second->second.first);
            if (first != conversion_of.end() && first->second.second == other(second->second.second))
                in = first->second.first;
        }
    }
    // Drop conversions nobody reads (the back-conversions of flipped nodes
    // whose readers were all flipped too, and conversions made redundant).
    const std::set<std::string> outputs(g.outputs.begin(), g.outputs.end());
    for (bool changed = true; changed;) {
        std::set<std::string> read;
        for (const Node &n : nodes) read.insert(n.inputs.begin(), n.inputs.end());
        auto unread = std::remove_if(nodes.begin(), nodes.end(), [&](const Node &n) {
            return n.op == "transpose" && !read.count(n.outputs[0]) && !outputs.count(n.outputs[0]);
        });
        changed = unread != nodes.end();
        nodes.erase(unread, nodes.end());
    }
    return rebuild_graph(g, nodes);
}

}  // namespace ansor_graph
