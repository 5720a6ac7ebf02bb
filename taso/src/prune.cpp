#include "prune.h"

#include "numeric_check.h"

#include <algorithm>
#include <functional>
#include <map>

namespace taso {

namespace {

bool interchangeable(const InputSpec &a, const InputSpec &b) {
    return a.kind == b.kind && a.shape == b.shape;
}

std::string pair_string(const InputFamily &family, const CandidatePair &pair, bool swapped) {
    std::vector<std::string> eqs;
    for (auto [i, j] : pair.outputs) {
        std::string l = render(family, pair.smaller, pair.smaller.outputs.at(i));
        std::string r = render(family, pair.larger, pair.larger.outputs.at(j));
        eqs.push_back(swapped ? r + "=" + l : l + "=" + r);
    }
    std::sort(eqs.begin(), eqs.end());
    std::string s;
    for (const auto &e : eqs) s += e + ";";
    return s;
}

bool same_refs(const std::vector<TensorRef> &a, const std::vector<TensorRef> &b) { return a == b; }

bool all_inputs(const std::vector<TensorRef> &refs) {
    for (const TensorRef &r : refs)
        if (r.op >= 0) return false;
    return true;
}

bool has_split_history(const TensorType &t) {
    for (int i = 0; i < t.rank; i++)
        if (t.splits[i]) return true;
    return false;
}

// Concrete shape of a symbolic type.
std::vector<int64_t> concrete(const TensorType &t, const std::vector<int64_t> &sizes) {
    std::vector<int64_t> s;
    for (int i = 0; i < t.rank; i++) s.push_back(t.dims[i].evaluate(sizes));
    return s;
}

}  // namespace

namespace {

// Inputs either graph refers to, in index order.
std::vector<int> used_inputs(const CandidatePair &pair) {
    std::vector<int> used;
    auto mark = [&](const TensorRef &r) {
        if (r.op < 0 && std::find(used.begin(), used.end(), r.index) == used.end()) used.push_back(r.index);
    };
    for (const PatternGraph *g : {&pair.smaller, &pair.larger}) {
        for (const PatternOp &op : g->ops)
            for (const TensorRef &r : op.operands) mark(r);
        for (const TensorRef &r : g->outputs) mark(r);
    }
    std::sort(used.begin(), used.end());
    return used;
}

}  // namespace

std::string canonical_key(const InputFamily &family, const CandidatePair &pair) {
    // The used inputs, grouped by kind and rank; inputs of one group may
    // trade places. Each arrangement names inputs by position and shape
    // symbols by first appearance, so the key is blind to both namings.
    std::vector<int> used = used_inputs(pair);
    std::vector<std::vector<int>> groups;
    for (int i : used) {
        const InputSpec &in = family.inputs[i];
        bool placed = false;
        for (auto &g : groups) {
            const InputSpec &first = family.inputs[g[0]];
            if (first.kind == in.kind && first.shape.size() == in.shape.size()) {
                g.push_back(i);
                placed = true;
                break;
            }
        }
        if (!placed) groups.push_back({i});
    }
    std::sort(groups.begin(), groups.end(), [&](const std::vector<int> &a, const std::vector<int> &b) {
        const InputSpec &x = family.inputs[a[0]], &y = family.inputs[b[0]];
        return std::make_pair((int)x.kind, x.shape.size()) < std::make_pair((int)y.kind, y.shape.size());
    });
    std::string best;
    InputFamily renamed = family;
    std::vector<std::vector<int>> order(groups.size());
    std::function<void(size_t)> visit = [&](size_t gi) {
        if (gi == groups.size()) {
            std::map<int, int> symbol_names;
            std::string header;
            for (size_t g = 0; g < order.size(); g++)
                for (size_t k = 0; k < order[g].size(); k++) {
                    const InputSpec &in = family.inputs[order[g][k]];
                    std::string name = "x" + std::to_string(g) + "_" + std::to_string(k);
                    renamed.inputs[order[g][k]].name = name;
                    header += name + ":" + input_kind_name(in.kind) + "[";
                    for (const DimExpr &d : in.shape) {
                        header += std::to_string(d.constant);
                        for (int sym : d.symbols) {
                            auto it = symbol_names.emplace(sym, (int)symbol_names.size()).first;
                            header += "+d" + std::to_string(it->second);
                        }
                        header += ",";
                    }
                    header += "]";
                }
            for (bool swapped : {false, true}) {
                std::string s = header + "|" + pair_string(renamed, pair, swapped);
                if (best.empty() || s < best) best = s;
            }
            return;
        }
        std::vector<int> perm = groups[gi];
        do {
            order[gi] = perm;
            visit(gi + 1);
        } while (std::next_permutation(perm.begin(), perm.end()));
    };
    visit(0);
    return best;
}

std::vector<std::string> instance_keys(const InputFamily &family, const CandidatePair &pair) {
    std::vector<int> used = used_inputs(pair);
    std::vector<std::string> keys;
    // Every way to merge used inputs of one kind and shape: rep[i] is the
    // input that input used[i] becomes (an earlier one, or itself).
    std::vector<int> rep(used.size());
    std::function<void(size_t, bool)> visit = [&](size_t i, bool merged) {
        if (i == used.size()) {
            if (!merged) return;
            CandidatePair inst = pair;
            auto fix = [&](TensorRef &r) {
                if (r.op >= 0) return;
                size_t k = std::find(used.begin(), used.end(), r.index) - used.begin();
                r.index = rep[k];
            };
            for (PatternGraph *g : {&inst.smaller, &inst.larger}) {
                for (PatternOp &op : g->ops)
                    for (TensorRef &r : op.operands) fix(r);
                for (TensorRef &r : g->outputs) fix(r);
            }
            keys.push_back(canonical_key(family, inst));
            return;
        }
        rep[i] = used[i];
        visit(i + 1, merged);
        for (size_t j = 0; j < i; j++)
            if (rep[j] == used[j] && interchangeable(family.inputs[used[i]], family.inputs[used[j]])) {
                rep[i] = used[j];
                visit(i + 1, true);
            }
    };
    visit(0, false);
    return keys;
}

bool has_removable_common_subgraph(const InputFamily &family, const CandidatePair &pair,
                                   const std::vector<int64_t> &sizes) {
    const PatternGraph &a = pair.smaller, &b = pair.larger;
    auto ta = infer_graph(family, a), tb = infer_graph(family, b);
    for (size_t i = 0; i < a.ops.size(); i++)
        for (size_t j = 0; j < b.ops.size(); j++) {
            const PatternOp &oa = a.ops[i], &ob = b.ops[j];
            if (oa.kind != ob.kind || !(oa.attrs == ob.attrs) || !all_inputs(oa.operands) ||
                !same_refs(oa.operands, ob.operands))
                continue;
            // A result with concat history cannot become a plain input: a
            // later split relies on that history.
            bool history = false;
            for (const TensorType &t : ta[i]) history = history || has_split_history(t);
            if (history) continue;
            std::mt19937_64 rng(7);
            bool equal = true;
            for (int trial = 0; trial < 2 && equal; trial++) {
                auto inputs = random_inputs<double>(family, sizes, rng);
                std::vector<std::vector<Tensor<double>>> oa_over(a.ops.size()), ob_over(b.ops.size());
                for (const TensorType &t : ta[i]) {
                    Tensor<double> fresh = random_tensor<double>(concrete(t, sizes), rng);
                    oa_over[i].push_back(fresh);
                    ob_over[j].push_back(fresh);
                }
                auto va = evaluate_graph<double>(family, a, inputs, sizes, &oa_over);
                auto vb = evaluate_graph<double>(family, b, inputs, sizes, &ob_over);
                for (auto [x, y] : pair.outputs) equal = equal && tensors_close(va.at(x), vb.at(y));
            }
            if (equal) return true;
        }
    return false;
}

bool has_common_output_operator(const InputFamily &family, const CandidatePair &pair,
                                const std::vector<int64_t> &sizes) {
    const PatternGraph &a = pair.smaller, &b = pair.larger;
    if (a.outputs.size() != 1 || b.outputs.size() != 1) return false;
    const TensorRef &ra = a.outputs[0], &rb = b.outputs[0];
    if (ra.op < 0 || rb.op < 0) return false;
    const PatternOp &oa = a.ops[ra.op], &ob = b.ops[rb.op];
    if (oa.kind != ob.kind || !(oa.attrs == ob.attrs) || ra.port != rb.port) return false;
    // Positions where the operands differ; each such pair (P, Q) must be
    // equal by itself (shape, split trees, values).
    std::vector<int> differing;
    for (size_t k = 0; k < oa.operands.size(); k++) {
        const TensorRef &x = oa.operands[k], &y = ob.operands[k];
        if (!(x.op < 0 && y.op < 0 && x.index == y.index)) differing.push_back((int)k);
    }
    if (differing.empty()) return false;
    for (int k : differing) {
        PatternGraph pa = a, pb = b;
        pa.outputs = {oa.operands[k]};
        pb.outputs = {ob.operands[k]};
        auto ta = infer_graph(family, pa), tb = infer_graph(family, pb);
        std::vector<TensorType> ia, ib;
        const TensorType &xa = type_of(family, ta, pa.outputs[0], ia), &xb = type_of(family, tb, pb.outputs[0], ib);
        if (!same_shape(xa, xb)) return false;
        for (int i = 0; i < xa.rank; i++)
            if (!same_tree(xa.splits[i], xb.splits[i])) return false;
        if (!numerically_equal(family, pa, pb, {{0, 0}}, sizes, 11, 2)) return false;
    }
    return true;
}

bool has_identical_output(const InputFamily &family, const CandidatePair &pair) {
    if (pair.outputs.size() < 2) return false;
    for (auto [i, j] : pair.outputs)
        if (render(family, pair.smaller, pair.smaller.outputs.at(i)) ==
            render(family, pair.larger, pair.larger.outputs.at(j)))
            return true;
    return false;
}

bool reads_weights_only(const InputFamily &family, const CandidatePair &pair) {
    for (const PatternGraph *g : {&pair.smaller, &pair.larger}) {
        // Operands come before their users, so one pass finds every operator
        // that depends on data.
        std::vector<bool> reads_data(g->ops.size(), false);
        for (size_t i = 0; i < g->ops.size(); i++)
            for (const TensorRef &r : g->ops[i].operands)
                if (r.op < 0 ? family.inputs.at(r.index).kind == InputKind::Tensor : (bool)reads_data.at(r.op))
                    reads_data[i] = true;
        if (std::find(reads_data.begin(), reads_data.end(), true) != reads_data.end()) return false;
    }
    return true;
}

}  // namespace taso
