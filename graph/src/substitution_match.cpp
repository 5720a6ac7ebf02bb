#include "substitution_match.h"

#include "graph_edit.h"
#include "op_attrs.h"
#include "shape_inference.h"

#include <algorithm>
#include <set>

namespace ansor_graph {

using taso::OpKind;
using taso::TensorRef;

namespace {

// The role of a pattern value decides how its taso axes map to graph axes.
// kVector: a 1-D bias, the same axis in both.
enum Role { kMatrix = 0, kData = 1, kKernel = 2, kVector = 3 };

// taso axis -> graph axis.
int graph_axis(int role, int taso_axis) {
    static const int data[4] = {0, 3, 1, 2};    // [b,c,h,w] -> NHWC
    static const int kernel[4] = {3, 2, 0, 1};  // [o,c,kh,kw] -> [KH,KW,CI,CO]
    if (role == kData) return data[taso_axis];
    if (role == kKernel) return kernel[taso_axis];
    return taso_axis;
}

int role_of(const SubstitutionRule &r, const taso::PatternGraph &p, const TensorRef &ref) {
    if (ref.op < 0) return r.input_roles.at(ref.index);
    const taso::PatternOp &op = p.ops.at(ref.op);
    if (taso::is_convolution(op.kind)) return kData;
    if (op.kind == OpKind::Enlarge) return kKernel;
    return role_of(r, p, op.operands.at(0));
}

bool uses_kind(const taso::PatternGraph &p, OpKind k) {
    return std::any_of(p.ops.begin(), p.ops.end(), [&](const taso::PatternOp &o) { return o.kind == k; });
}

std::set<int> inputs_used(const taso::PatternGraph &p) {
    std::set<int> s;
    for (const auto &op : p.ops)
        for (const auto &r : op.operands)
            if (r.op < 0) s.insert(r.index);
    for (const auto &r : p.outputs)
        if (r.op < 0) s.insert(r.index);
    return s;
}

const char *graph_op_of(OpKind k) {
    switch (k) {
    case OpKind::EwAdd: return "add";
    case OpKind::EwMul: return "mul";
    case OpKind::Relu: return "relu";
    case OpKind::Transpose: return "transpose";
    case OpKind::Concat: return "concat";
    case OpKind::Split: return "split";
    case OpKind::Conv2d: return "conv2d";
    case OpKind::Conv2dBias: return "conv2d";
    case OpKind::Conv2dBiasAdd: return "conv2d";
    case OpKind::Enlarge: return "enlarge";
    case OpKind::Matmul: return "matmul";
    case OpKind::MatmulBias: return "dense";
    default: return nullptr;
    }
}

}  // namespace

std::vector<SubstitutionRule> make_rules(const std::vector<taso::Substitution> &subs, RuleSetStats *stats) {
    RuleSetStats s;
    std::vector<SubstitutionRule> rules;
    for (size_t i = 0; i < subs.size(); i++) {
        const taso::Substitution &sub = subs[i];
        s.substitutions++;
        bool scalar = uses_kind(sub.source, OpKind::ScalarMul) || uses_kind(sub.target, OpKind::ScalarMul) ||
                      std::any_of(sub.family.inputs.begin(), sub.family.inputs.end(),
                                  [](const taso::InputSpec &in) { return in.kind == taso::InputKind::Scalar; });
        if (scalar) {
            s.skipped_scalar += 2;
            continue;
        }
        for (bool reversed : {false, true}) {
            SubstitutionRule r;
            r.index = (int)i;
            r.reversed = reversed;
            r.family = sub.family;
            r.from = reversed ? sub.target : sub.source;
            r.to = reversed ? sub.source : sub.target;
            for (auto [a, b] : sub.outputs) r.outputs.push_back(reversed ? std::make_pair(b, a) : std::make_pair(a, b));
            // The side to build may use an identity kernel the matched side
            // lacks (it is created); any other input must be bound.
            const std::set<int> from_in = inputs_used(r.from), to_in = inputs_used(r.to);
            bool missing = r.from.ops.empty();
            for (int k : to_in)
                if (!from_in.count(k) && r.family.inputs[k].kind != taso::InputKind::IdentityKernel) missing = true;
            if (missing || r.outputs.size() != r.from.outputs.size()) {
                s.skipped_other++;
                continue;
            }
            for (const auto &in : r.family.inputs) {
                const bool kernel = in.kind == taso::InputKind::Weight || in.kind == taso::InputKind::IdentityKernel;
                r.input_roles.push_back(in.shape.size() == 4 ? (kernel ? kKernel : kData)
                                        : in.shape.size() == 1 ? kVector : kMatrix);
            }
            r.from_types = taso::infer_graph(r.family, r.from);
            r.to_types = taso::infer_graph(r.family, r.to);
            std::string from_text, to_text;
            for (const auto &o : r.from.outputs) from_text += (from_text.empty() ? "" : ", ") + taso::render(r.family, r.from, o);
            for (const auto &o : r.to.outputs) to_text += (to_text.empty() ? "" : ", ") + taso::render(r.family, r.to, o);
            r.text = from_text + " => " + to_text;
            rules.push_back(std::move(r));
            s.rules++;
        }
    }
    if (stats) *stats = s;
    return rules;
}

std::string SubstitutionMatch::describe(const Graph &g) const {
    std::string s = "substitution #" + std::to_string(rule->index) + (rule->reversed ? " (reversed)" : "") + ": " +
                    rule->text + " at nodes";
    for (size_t i = 0; i < nodes.size(); i++) s += (i ? ", " : " ") + g.nodes[nodes[i]].name;
    return s;
}

namespace {

class Matcher {
public:
    Matcher(const Graph &g, const SubstitutionRule &r, size_t limit, const GraphIndex &index)
        : g_(g), r_(r), limit_(limit), consumers_(index.consumers), node_of_(r.from.ops.size(), -1),
          bound_(r.family.inputs.size()) {
        for (size_t i = 0; i < g.outputs.size(); i++) graph_outputs_.insert(g.outputs[i]);
    }

    std::vector<SubstitutionMatch> run() {
        match_op(0);
        return found_;
    }

private:
    const Graph &g_;
    const SubstitutionRule &r_;
    size_t limit_;
    const std::map<std::string, std::vector<int>> &consumers_;
    std::set<std::string> graph_outputs_;
    std::vector<int> node_of_;
    std::vector<std::string> bound_;
    std::set<int> used_;
    std::set<std::pair<std::vector<int>, std::vector<std::string>>> seen_;
    std::vector<SubstitutionMatch> found_;

    std::string tensor_of(const TensorRef &ref) const {
        if (ref.op < 0) return bound_[ref.index];
        return g_.nodes[node_of_[ref.op]].outputs[ref.port];
    }

    // The graph node has the operator and attributes of pattern op j.
    bool same_op(const taso::PatternOp &op, const Node &n) const {
        const char *want = graph_op_of(op.kind);
        if (!want) return false;
        const std::string where = "node '" + n.name + "'";
        const int out_count = op.kind == OpKind::Split ? 2 : 1;
        if ((int)n.outputs.size() != out_count) return false;
        switch (op.kind) {
        case OpKind::Matmul:
        case OpKind::MatmulBias:
            // A graph matmul or dense node, with a bias exactly when the
            // pattern's has one.
            if (n.op != "matmul" && n.op != "dense") return false;
            return n.inputs.size() == (op.kind == OpKind::Matmul ? 2u : 3u) &&
                   dense_attrs(n, where).act == Act::kNone && g_.tensor(n.inputs[0]).shape.size() == 2;
        case OpKind::Transpose:
            return n.op == want && transpose_attrs(n, where).perm == std::vector<int>{1, 0};
        case OpKind::Concat:
        case OpKind::Split: {
            if (n.op != want || (op.kind == OpKind::Concat && n.inputs.size() != 2)) return false;
            const int role = role_of(r_, r_.from, op.operands[0]);
            const int rank = (int)g_.tensor(n.inputs[0]).shape.size();
            return axis_attrs(n, where, rank).axis == graph_axis(role, op.attrs.axis);
        }
        case OpKind::Conv2d:
        case OpKind::Conv2dBias:
        case OpKind::Conv2dBiasAdd: {
            if (n.op != want || n.inputs.size() != (size_t)taso::num_operands(op.kind)) return false;
            const ConvAttrs a = conv_attrs(n, where);
            const Shape &w = g_.tensor(n.inputs[1]).shape;
            const bool act_ok = (a.act == Act::kNone && op.attrs.activation == taso::Activation::None) ||
                                (a.act == Act::kRelu && op.attrs.activation == taso::Activation::Relu);
            const bool pad_ok = op.attrs.padding == taso::Padding::Same
                                    ? w[0] % 2 == 1 && w[1] % 2 == 1 && a.ph == w[0] / 2 && a.pw == w[1] / 2
                                    : a.ph == 0 && a.pw == 0;
            return a.groups == 1 && a.dh == 1 && a.dw == 1 && a.sh == op.attrs.stride && a.sw == op.attrs.stride &&
                   act_ok && pad_ok;
        }
        case OpKind::Enlarge: {
            if (n.op != want) return false;
            const EnlargeAttrs a = enlarge_attrs(n, where);
            return a.kh == op.attrs.kernel && a.kw == op.attrs.kernel;
        }
        default:
            return n.op == want;
        }
    }

    // A tensor may stand for pattern input `input`: of its rank and layout;
    // an identity kernel only for a weight declared as one.
    bool fits(const std::string &t, int input) const {
        const TensorInfo &info = g_.tensor(t);
        if (r_.family.inputs[input].kind == taso::InputKind::IdentityKernel)
            return info.kind == TensorKind::kWeight && info.init == "identity" && info.shape.size() == 4;
        const int role = r_.input_roles[input];
        if (role == kMatrix) return info.shape.size() == 2;
        if (role == kVector) return info.shape.size() == 1;
        if (role == kData) return info.shape.size() == 4 && info.layout == Layout::kNHWC;
        return info.shape.size() == 4;
    }

    void match_op(size_t j) {
        if (found_.size() >= limit_) return;
        if (j == r_.from.ops.size()) {
            finish();
            return;
        }
        const taso::PatternOp &op = r_.from.ops[j];
        // Candidates: consumers of an operand already known, else every node.
        const std::vector<int> *cands = nullptr;
        std::vector<int> all;
        for (const TensorRef &ref : op.operands) {
            std::string t = tensor_of(ref);
            if (!t.empty()) {
                auto it = consumers_.find(t);
                if (it == consumers_.end()) return;
                cands = &it->second;
                break;
            }
        }
        if (!cands) {
            for (size_t i = 0; i < g_.nodes.size(); i++) all.push_back((int)i);
            cands = &all;
        }
        std::set<int> tried;
        for (int ni : *cands) {
            if (used_.count(ni) || !tried.insert(ni).second) continue;
            const Node &n = g_.nodes[ni];
            if (n.inputs.size() != op.operands.size() || !same_op(op, n)) continue;
            std::vector<int> in_order(op.operands.size());
            for (size_t k = 0; k < in_order.size(); k++) in_order[k] = (int)k;
            std::vector<std::vector<int>> orders = {in_order};
            if (taso::is_commutative(op.kind) && n.inputs[0] != n.inputs[1]) orders.push_back({1, 0});
            for (const auto &order : orders) {
                std::vector<int> newly_bound;
                bool ok = true;
                for (size_t k = 0; k < op.operands.size() && ok; k++) {
                    const TensorRef &ref = op.operands[k];
                    const std::string &actual = n.inputs[order[k]];
                    const std::string want = tensor_of(ref);
                    if (!want.empty()) {
                        ok = want == actual;
                    } else {  // an unbound input
                        ok = fits(actual, ref.index);
                        if (ok) {
                            bound_[ref.index] = actual;
                            newly_bound.push_back(ref.index);
                        }
                    }
                }
                if (ok) {
                    node_of_[j] = ni;
                    used_.insert(ni);
                    match_op(j + 1);
                    used_.erase(ni);
                    node_of_[j] = -1;
                }
                for (int b : newly_bound) bound_[b].clear();
            }
        }
    }

    // Shape constraints, split sizes and private intermediates.
    void finish() {
        if (!seen_.insert({node_of_, bound_}).second) return;
        const auto &inputs = r_.family.inputs;
        std::vector<int64_t> sym(r_.family.symbols.size(), -1);
        for (int pass = 0; pass < 2; pass++) {
            for (size_t i = 0; i < inputs.size(); i++) {
                if (bound_[i].empty()) continue;
                const Shape &s = g_.tensor(bound_[i]).shape;
                if (s.size() != inputs[i].shape.size()) return;
                for (size_t d = 0; d < s.size(); d++) {
                    const taso::DimExpr &e = inputs[i].shape[d];
                    const int64_t actual = s[graph_axis(r_.input_roles[i], (int)d)];
                    if (pass == 0) {
                        if (e.symbols.size() == 1 && e.constant == 0 && e.plain()) {
                            int64_t &v = sym[e.symbols[0]];
                            if (v >= 0 && v != actual) return;
                            v = actual;
                        }
                    } else {
                        for (int id : e.symbols)
                            if (sym[id] < 0) return;  // a symbol only in sums: not solved here
                        if (e.evaluate(sym) != actual) return;
                    }
                }
            }
        }
        // An identity kernel to create needs its size.
        for (size_t i = 0; i < inputs.size(); i++) {
            if (!bound_[i].empty() || inputs[i].kind != taso::InputKind::IdentityKernel) continue;
            for (const auto &e : inputs[i].shape)
                for (int id : e.symbols)
                    if (sym[id] < 0) return;
        }
        for (size_t j = 0; j < r_.from.ops.size(); j++) {
            const taso::PatternOp &op = r_.from.ops[j];
            if (op.kind != OpKind::Split) continue;
            std::vector<taso::TensorType> input_types;
            const taso::TensorType &t = taso::type_of(r_.family, r_.from_types, op.operands[0], input_types);
            if (!t.splits[op.attrs.axis]) return;
            const Node &n = g_.nodes[node_of_[j]];
            const int rank = (int)g_.tensor(n.inputs[0]).shape.size();
            if (axis_attrs(n, "node '" + n.name + "'", rank).sizes.at(0) != t.splits[op.attrs.axis]->left.evaluate(sym))
                return;
        }
        // Results of matched nodes other than the pattern's outputs stay inside.
        std::set<std::string> pattern_outputs, matched_outputs;
        for (const TensorRef &o : r_.from.outputs) pattern_outputs.insert(tensor_of(o));
        for (int ni : node_of_)
            for (const auto &t : g_.nodes[ni].outputs) matched_outputs.insert(t);
        for (const auto &b : bound_)
            if (matched_outputs.count(b)) return;  // an input computed by the pattern itself
        for (const auto &t : matched_outputs) {
            if (pattern_outputs.count(t)) continue;
            if (graph_outputs_.count(t)) return;
            auto it = consumers_.find(t);
            if (it == consumers_.end()) continue;
            for (int c : it->second)
                if (!used_.count(c)) return;
        }
        SubstitutionMatch m;
        m.rule = &r_;
        m.nodes = node_of_;
        m.inputs = bound_;
        m.symbols = sym;
        found_.push_back(std::move(m));
    }
};

}  // namespace

GraphIndex index_graph(const Graph &g) {
    GraphIndex index;
    index.consumers = consumers_of(g);
    for (const Node &n : g.nodes) index.ops.insert(n.op);
    return index;
}

std::vector<SubstitutionMatch> find_matches(const Graph &g, const SubstitutionRule &rule, size_t limit,
                                            const GraphIndex *index) {
    GraphIndex own;
    if (!index) {
        own = index_graph(g);
        index = &own;
    }
    // A pattern operator with no graph operator of its kind present: no match.
    for (const taso::PatternOp &op : rule.from.ops) {
        const char *want = graph_op_of(op.kind);
        if (!want) return {};
        const bool dense_like = op.kind == OpKind::Matmul || op.kind == OpKind::MatmulBias;
        const bool present = dense_like ? index->ops.count("dense") || index->ops.count("matmul") : index->ops.count(want);
        if (!present) return {};
    }
    return Matcher(g, rule, limit, *index).run();
}

Graph apply_match(const Graph &g, const SubstitutionMatch &m) {
    const SubstitutionRule &r = *m.rule;
    Graph scratch = g;  // for the shapes of the new nodes' inputs; gets the new identity kernels
    std::set<std::string> taken = used_names(g);
    std::vector<Node> added;
    std::vector<std::vector<std::string>> results;  // of each `to` op
    std::vector<std::string> inputs = m.inputs;
    auto value = [&](const TensorRef &ref) -> std::string {
        return ref.op < 0 ? inputs.at(ref.index) : results.at(ref.op).at(ref.port);
    };
    const std::string context = "applying " + m.describe(g);
    // Identity kernels the new nodes read: new weights declared "identity".
    for (int k : inputs_used(r.to)) {
        if (!inputs[k].empty()) continue;
        const taso::InputSpec &spec = r.family.inputs[k];
        TensorInfo t;
        t.name = fresh_name(taken, "taso_identity");
        t.kind = TensorKind::kWeight;
        t.init = "identity";
        t.shape.assign(spec.shape.size(), 0);
        for (size_t d = 0; d < spec.shape.size(); d++)
            t.shape[graph_axis(kKernel, (int)d)] = (int)spec.shape[d].evaluate(m.symbols);
        scratch.tensors[t.name] = t;
        scratch.weights.push_back(t.name);
        inputs[k] = t.name;
    }
    for (size_t j = 0; j < r.to.ops.size(); j++) {
        const taso::PatternOp &op = r.to.ops[j];
        const int outs = op.kind == OpKind::Split ? 2 : 1;
        Node n;
        n.name = fresh_name(taken, "taso");
        // A split writes <name>_0 and <name>_1: those must be free too.
        while (outs > 1 && (taken.count(n.name + "_0") || taken.count(n.name + "_1"))) n.name = fresh_name(taken, "taso");
        for (int p = 0; p < outs; p++) {
            n.outputs.push_back(outs == 1 ? n.name : n.name + "_" + std::to_string(p));
            taken.insert(n.outputs.back());
        }
        n.op = graph_op_of(op.kind);
        for (const TensorRef &ref : op.operands) n.inputs.push_back(value(ref));
        const int role = op.operands.empty() ? kMatrix : role_of(r, r.to, op.operands[0]);
        switch (op.kind) {
        case OpKind::Transpose: n.attrs = {{"perm", {1, 0}}}; break;
        case OpKind::Concat: n.attrs = {{"axis", graph_axis(role, op.attrs.axis)}}; break;
        case OpKind::Split: {
            const int axis = graph_axis(role, op.attrs.axis);
            std::vector<taso::TensorType> input_types;
            const taso::TensorType &t = taso::type_of(r.family, r.to_types, op.operands[0], input_types);
            if (!t.splits[op.attrs.axis]) throw GraphError(context + ": a split without a concat to undo");
            const int total = scratch.tensor(n.inputs[0]).shape.at(axis);
            const int left = (int)t.splits[op.attrs.axis]->left.evaluate(m.symbols);
            n.attrs = {{"axis", axis}, {"sizes", {left, total - left}}};
            break;
        }
        case OpKind::Conv2d:
        case OpKind::Conv2dBias:
        case OpKind::Conv2dBiasAdd: {
            const Shape &w = scratch.tensor(n.inputs[1]).shape;
            const bool same = op.attrs.padding == taso::Padding::Same;
            n.attrs = {{"stride", op.attrs.stride},
                       {"padding", {same ? w[0] / 2 : 0, same ? w[1] / 2 : 0}},
                       {"activation", op.attrs.activation == taso::Activation::Relu ? "relu" : "none"}};
            break;
        }
        case OpKind::Enlarge: n.attrs = {{"kernel", op.attrs.kernel}}; break;
        default: break;
        }
        infer_node(scratch, n, context + ": new node '" + n.name + "' (" + n.op + ")");
        results.push_back(n.outputs);
        added.push_back(n);
    }

    // Each result of the matched nodes the graph uses further: its new
    // producer writes it under its old name, or its users read the new tensor.
    std::set<int> matched(m.nodes.begin(), m.nodes.end());
    std::map<std::string, std::string> rename_new;  // new tensor -> old name it takes
    std::map<std::string, std::string> redirect;    // old tensor -> tensor its users read instead
    std::set<std::string> graph_outputs(g.outputs.begin(), g.outputs.end());
    for (auto [fo, to] : r.outputs) {
        const TensorRef &from_ref = r.from.outputs.at(fo);
        const std::string old = g.nodes[m.nodes.at(from_ref.op)].outputs.at(from_ref.port);
        const TensorRef &to_ref = r.to.outputs.at(to);
        const std::string now = value(to_ref);
        if (scratch.tensor(now).shape != g.tensor(old).shape)
            throw GraphError(context + ": the new '" + now + "' " + shape_string(scratch.tensor(now).shape) +
                             " does not have the shape of '" + old + "' " + shape_string(g.tensor(old).shape));
        if (to_ref.op >= 0 && !rename_new.count(now)) {
            rename_new[now] = old;
        } else {
            if (graph_outputs.count(old))
                throw GraphError(context + ": graph output '" + old + "' would be renamed");
            redirect[old] = rename_new.count(now) ? rename_new[now] : now;
        }
    }
    std::vector<Node> nodes;
    for (size_t i = 0; i < g.nodes.size(); i++) {
        if (matched.count((int)i)) continue;
        Node n = g.nodes[i];
        for (auto &in : n.inputs)
            if (redirect.count(in)) in = redirect[in];
        nodes.push_back(n);
    }
    for (Node n : added) {
        for (auto &t : n.outputs)
            if (rename_new.count(t)) t = rename_new[t];
        for (auto &t : n.inputs)
            if (rename_new.count(t)) t = rename_new[t];
        nodes.push_back(n);
    }
    // Identity kernels added by earlier rewrites that nothing reads any more go.
    Graph base = scratch;
    std::set<std::string> read;
    for (const Node &n : nodes) read.insert(n.inputs.begin(), n.inputs.end());
    base.weights.clear();
    for (const auto &w : scratch.weights)
        if (read.count(w) || w.rfind("taso_identity", 0) != 0) base.weights.push_back(w);
    return rebuild_graph(base, nodes);
}

}  // namespace ansor_graph
