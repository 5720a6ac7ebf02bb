#include "enumerate.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

namespace taso {

namespace {

uint64_t mix(uint64_t x) {  // splitmix64's finaliser
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

uint64_t combine(uint64_t h, uint64_t v) { return mix(h ^ (v + 0x517cc1b727220a95ull + (h << 6))); }

struct GraphKeyHash {
    template <size_t N>
    size_t operator()(const std::array<int32_t, N> &a) const {
        uint64_t h = 0;
        for (int32_t v : a) h = combine(h, (uint64_t)(uint32_t)v);
        return (size_t)h;
    }
};

}  // namespace

struct Enumerator::Impl {
    struct Expr {
        int variant = -1;      // -1: an input
        int input_index = -1;  // for inputs
        int operands[4] = {-1, -1, -1, -1};
        int port = 0;
        bool constant = false;     // derived from constant inputs only
        bool weight_only = false;  // derived from weights and constants only
        std::vector<int> closure;  // the operators it needs (first-result ids), sorted
        TensorType type;
        uint64_t hash = 0;
        Tensor<int64_t> value;
    };

    const EnumerationFamily &fam;
    std::vector<Expr> exprs;
    std::unordered_map<std::array<int32_t, 5>, int, GraphKeyHash> interned;  // (variant, a, b, c, d) -> first result id or -1
    int num_inputs = 0;
    int max_ops = 4;

    explicit Impl(const EnumerationFamily &f) : fam(f) {
        std::mt19937_64 rng(20240317);
        auto values = random_inputs<int64_t>(fam.family, fam.fingerprint_sizes, rng);
        for (size_t i = 0; i < fam.family.inputs.size(); i++) {
            Expr e;
            e.input_index = (int)i;
            e.type = input_type(fam.family.inputs[i]);
            InputKind k = fam.family.inputs[i].kind;
            e.constant = k == InputKind::Scalar || k == InputKind::IdentityKernel;
            e.weight_only = e.constant || k == InputKind::Weight;
            e.value = values[i];
            // A small random scalar (3, say) lets a multiplication by s
            // pass for a few additions (A + A + A); -13 is out of reach of
            // four operators on values in [-3, 3] and negative, so relu
            // tells it apart.
            if (k == InputKind::Scalar) e.value.data.assign(1, -13);
            e.hash = value_hash(e);
            exprs.push_back(std::move(e));
        }
        num_inputs = (int)exprs.size();
    }

    uint64_t value_hash(const Expr &e) const {
        uint64_t h = mix((uint64_t)e.value.shape.size());
        for (int64_t d : e.value.shape) h = combine(h, (uint64_t)d);
        for (int i = 0; i < e.type.rank; i++)
            for (char c : tree_key(e.type.splits[i], fam.fingerprint_sizes)) h = combine(h, (uint64_t)c);
        for (int64_t v : e.value.data) h = combine(h, (uint64_t)v);
        return h;
    }

    bool is_input(int id) const { return id < num_inputs; }

    // The first result's id of variant over operands (b, c, d = -1 when the
    // operator takes fewer), or -1 when the operator is ill-shaped.
    int intern(int variant, int a, int b, int c = -1, int d = -1) {
        if (exprs.size() + 2 >= (1u << 30)) throw std::runtime_error("too many expressions to enumerate");
        std::array<int32_t, 5> key{variant, a, b, c, d};
        auto it = interned.find(key);
        if (it != interned.end()) return it->second;
        const OpVariant &v = fam.ops[variant];
        std::vector<const TensorType *> types;
        std::vector<const Tensor<int64_t> *> values;
        for (int o : {a, b, c, d})
            if (o >= 0) {
                types.push_back(&exprs[o].type);
                values.push_back(&exprs[o].value);
            }
        int id = -1;
        std::vector<Expr> results;
        for (int p = 0; p < num_results(v.kind); p++) {
            auto t = infer_result(v.kind, v.attrs, types, p);
            if (!t) break;
            Expr e;
            e.variant = variant;
            e.operands[0] = a;
            e.operands[1] = b;
            e.operands[2] = c;
            e.operands[3] = d;
            e.port = p;
            e.constant = e.weight_only = true;
            for (int o : {a, b, c, d})
                if (o >= 0) {
                    e.constant = e.constant && exprs[o].constant;
                    e.weight_only = e.weight_only && exprs[o].weight_only;
                    e.closure.insert(e.closure.end(), exprs[o].closure.begin(), exprs[o].closure.end());
                }
            e.closure.push_back((int)exprs.size());  // this operator's first result id
            std::sort(e.closure.begin(), e.closure.end());
            e.closure.erase(std::unique(e.closure.begin(), e.closure.end()), e.closure.end());
            e.type = *t;
            try {
                int64_t left = 0;
                if (v.kind == OpKind::Split)
                    left = exprs[a].type.splits[v.attrs.axis]->left.evaluate(fam.fingerprint_sizes);
                e.value = eval_op<int64_t>(v.kind, v.attrs, values, p, left);
            } catch (const std::runtime_error &) {
                break;  // symbolically fine, but not at the fingerprint sizes
            }
            e.hash = value_hash(e);
            // A result that already needs max_ops operators is never an
            // operand: keep its hash, drop its values (most of the memory).
            if ((int)e.closure.size() >= max_ops) e.value = Tensor<int64_t>{};
            results.push_back(std::move(e));
        }
        if ((int)results.size() == num_results(v.kind)) {
            id = (int)exprs.size();
            for (Expr &e : results) exprs.push_back(std::move(e));
        }
        interned.emplace(key, id);
        return id;
    }

    int results_of(int id) const { return num_results(fam.ops[exprs[id].variant].kind); }

    // Output expression ids of a graph (operator results nobody consumes).
    std::vector<int> outputs(const GraphRec &g) const {
        if (g.count == 0) return {g.ops[0]};
        std::vector<int> out;
        for (int i = 0; i < g.count; i++)
            for (int p = 0; p < results_of(g.ops[i]); p++) {
                int r = g.ops[i] + p;
                bool used = false;
                for (int j = 0; j < g.count && !used; j++)
                    for (int o : exprs[g.ops[j]].operands) used = used || o == r;
                if (!used) out.push_back(r);
            }
        return out;
    }

    bool connected(const GraphRec &g) const {
        if (g.count <= 1) return true;
        // Union-find over operators; two operators join when one consumes
        // the other's result or both consume the same non-constant input.
        std::vector<int> parent(g.count);
        std::iota(parent.begin(), parent.end(), 0);
        auto find = [&](int x) {
            while (parent[x] != x) x = parent[x] = parent[parent[x]];
            return x;
        };
        auto base = [&](int id) { return id - exprs[id].port; };
        for (int i = 0; i < g.count; i++)
            for (int j = 0; j < g.count; j++) {
                if (i == j) continue;
                bool joined = false;
                for (int o : exprs[g.ops[i]].operands) {
                    if (o < 0) continue;
                    if (!is_input(o) && base(o) == g.ops[j]) joined = true;
                    if (is_input(o) && !exprs[o].constant)
                        for (int q : exprs[g.ops[j]].operands) joined = joined || q == o;
                }
                if (joined) parent[find(i)] = find(j);
            }
        for (int i = 1; i < g.count; i++)
            if (find(i) != find(0)) return false;
        return true;
    }

    uint64_t fingerprint(const std::vector<int> &outs) const {
        uint64_t f = 0;
        for (int o : outs) f += mix(exprs[o].hash);
        return f;
    }

    PatternGraph to_pattern(const GraphRec &g, std::vector<int> *output_ids) const {
        PatternGraph pg;
        auto ref = [&](int id) {
            if (is_input(id)) return TensorRef{-1, exprs[id].input_index, 0};
            int b = id - exprs[id].port;
            int idx = (int)(std::find(g.ops.begin(), g.ops.begin() + g.count, b) - g.ops.begin());
            return TensorRef{idx, 0, exprs[id].port};
        };
        // Ids grow with creation, and operands are created before their
        // users, so sorted ids are a topological order.
        for (int i = 0; i < g.count; i++) {
            const Expr &e = exprs[g.ops[i]];
            PatternOp op;
            op.kind = fam.ops[e.variant].kind;
            op.attrs = fam.ops[e.variant].attrs;
            for (int o : e.operands)
                if (o >= 0) op.operands.push_back(ref(o));
            pg.ops.push_back(op);
        }
        *output_ids = outputs(g);
        for (int o : *output_ids) pg.outputs.push_back(ref(o));
        return pg;
    }
};

Enumerator::Enumerator(const EnumerationFamily &family) : impl_(new Impl(family)) {}
Enumerator::~Enumerator() { delete impl_; }

EnumerationResult Enumerator::run(int max_ops) {
    if (max_ops < 1 || max_ops > 4) throw std::runtime_error("max ops must be 1..4, got " + std::to_string(max_ops));
    Impl &m = *impl_;
    m.max_ops = max_ops;
    EnumerationResult res;
    std::vector<GraphRec> recorded;
    std::unordered_map<uint64_t, int> group_first;  // fingerprint -> index in recorded
    std::vector<std::pair<int, int>> pairs;

    auto record = [&](GraphRec g) {
        auto outs = m.outputs(g);
        g.fingerprint = m.fingerprint(outs);
        res.graphs++;
        int idx = (int)recorded.size();
        recorded.push_back(g);
        auto [it, fresh] = group_first.emplace(g.fingerprint, idx);
        if (!fresh) pairs.emplace_back(it->second, idx);
    };

    for (int i = 0; i < m.num_inputs; i++) {
        InputKind k = m.fam.family.inputs[i].kind;
        if (k != InputKind::Tensor && k != InputKind::Weight) continue;
        GraphRec g;
        g.ops[0] = i;
        record(g);
    }

    std::unordered_set<std::array<int32_t, 4>, GraphKeyHash> seen;
    std::vector<GraphRec> level{GraphRec{}};
    for (int depth = 0; depth < max_ops; depth++) {
        std::vector<GraphRec> next;
        for (const GraphRec &g : level) {
            std::vector<int> avail;
            for (int i = 0; i < m.num_inputs; i++) avail.push_back(i);
            for (int i = 0; i < g.count; i++)
                for (int p = 0; p < m.results_of(g.ops[i]); p++) avail.push_back(g.ops[i] + p);
            auto try_add = [&](int variant, int a, int b, int c, int d) {
                OpKind kind = m.fam.ops[variant].kind;
                if (kind == OpKind::Enlarge && !m.is_input(a)) return;
                if (kind != OpKind::Enlarge && m.exprs[a].constant && (b < 0 || m.exprs[b].constant)) return;
                // Convolutions and biased layers take data and a kernel (and
                // a bias) built from weights, and a residual that is data;
                // relu applies to data.
                bool layer = is_convolution(kind) || kind == OpKind::MatmulBias;
                if (layer && (m.exprs[a].weight_only || !m.exprs[b].weight_only)) return;
                if (c >= 0 && !m.exprs[c].weight_only) return;
                if (d >= 0 && m.exprs[d].weight_only) return;
                if (kind == OpKind::Relu && m.exprs[a].weight_only) return;
                int id = m.intern(variant, a, b, c, d);
                if (id < 0) return;
                for (int i = 0; i < g.count; i++)
                    if (g.ops[i] == id) return;
                GraphRec g2 = g;
                g2.ops[g2.count++] = id;
                std::sort(g2.ops.begin(), g2.ops.begin() + g2.count);
                for (int i = g2.count; i < 4; i++) g2.ops[i] = -1;
                if (!seen.insert(g2.ops).second) return;
                next.push_back(g2);
                if (m.connected(g2))
                    record(g2);
                else
                    res.disconnected++;
            };
            for (int v = 0; v < (int)m.fam.ops.size(); v++) {
                OpKind kind = m.fam.ops[v].kind;
                for (int a : avail) {
                    if (num_operands(kind) == 1) {
                        try_add(v, a, -1, -1, -1);
                        continue;
                    }
                    for (int b : avail) {
                        if (is_commutative(kind) && b < a) continue;
                        if (num_operands(kind) == 2) {
                            try_add(v, a, b, -1, -1);
                            continue;
                        }
                        for (int c : avail) {
                            if (num_operands(kind) == 3) {
                                try_add(v, a, b, c, -1);
                                continue;
                            }
                            for (int d : avail) try_add(v, a, b, c, d);
                        }
                    }
                }
            }
        }
        level = std::move(next);
    }
    res.expressions = (int64_t)m.exprs.size() - m.num_inputs;

    for (auto [first, other] : pairs) {
        CandidatePair c;
        std::vector<int> out_a, out_b;
        c.smaller = m.to_pattern(recorded[first], &out_a);
        c.larger = m.to_pattern(recorded[other], &out_b);
        if (out_a.size() != out_b.size()) continue;  // a hash collision
        std::vector<bool> taken(out_b.size(), false);
        bool ok = true;
        for (size_t i = 0; i < out_a.size() && ok; i++) {
            ok = false;
            for (size_t j = 0; j < out_b.size(); j++)
                if (!taken[j] && m.exprs[out_a[i]].hash == m.exprs[out_b[j]].hash) {
                    taken[j] = true;
                    c.outputs.emplace_back((int)i, (int)j);
                    ok = true;
                    break;
                }
        }
        if (ok) res.candidates.push_back(std::move(c));
    }
    return res;
}

}  // namespace taso
