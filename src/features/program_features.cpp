#include "features/program_features.h"

#include "dag/inline_calls.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace ansor {

using namespace Halide;
using namespace Halide::Internal;
using namespace features;

namespace {

// Columns of the arithmetic group.
enum ArithColumn {
    FMad, FAddSub, FMul, FDivMod, FCmp, FMath, FOther,
    IMad, IAddSub, IMul, IDivMod, ICmp, IMath, IOther,
    BoolOp, SelectOp,
};

enum class BufKind : uint8_t { Func, Input, Intm };

// ---------------------------------------------------------------------------
// The pure part: what one stage's definition does per iteration.

struct TAccess {
    int buffer = 0;
    // One row per buffer dimension: the constant, then one coefficient per
    // slot (the definition's loop variables).
    std::vector<double> form;
    int dim_offset = 0;  // into the per-access scratch rows
};

struct TBuffer {
    BufKind kind = BufKind::Func;
    int index = 0;       // DAG node (Func, Intm: the node it came from) or image
    int elem_bytes = 4;
    bool read = false, write = false;
    int dims = 0;
    int dim_offset = 0;  // into the per-buffer scratch rows
    std::vector<int> accesses;
};

struct Template {
    std::vector<std::string> slot_names;
    std::vector<LoopKind> slot_kinds;
    std::vector<int> pure_slot;  // slot of each dimension of the written buffer, -1 if none
    std::array<double, kArith> arith{};
    double ops = 0;  // arithmetic operations per iteration, a mad counting two
    int write_bytes = 4;
    std::vector<TBuffer> buffers;  // written buffer first, then reads in order of appearance
    std::vector<TAccess> accesses;
    int total_access_dims = 0;
    int total_buffer_dims = 0;
    int nslots() const { return (int)slot_names.size(); }
};

bool is_transparent_intrinsic(const Call *op) {
    return op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::likely_if_innermost) ||
           op->is_intrinsic(Call::promise_clamped) || op->is_intrinsic(Call::unsafe_promise_clamped) ||
           op->is_intrinsic(Call::strict_float) || op->is_intrinsic(Call::return_second) ||
           op->is_intrinsic(Call::reinterpret);
}

// Counts the arithmetic of a definition (each shared sub-expression once,
// as CSE would) and lists its Func and image calls, outermost first.
class OpCounter : public IRGraphVisitor {
public:
    std::array<double, kArith> n{};
    std::vector<const Call *> calls;

private:
    using IRGraphVisitor::visit;

    void bump(const Type &t, int f, int i) {
        if (t.is_bool()) n[BoolOp]++;
        else n[t.is_float() ? f : i]++;
    }
    template<typename T>
    void add_like(const T *op) {
        const Mul *ma = op->a.template as<Mul>(), *mb = op->b.template as<Mul>();
        const Mul *m = mb ? mb : ma;
        if (m && !op->type.is_bool()) {
            // a*b + c is one multiply-add.
            n[op->type.is_float() ? FMad : IMad]++;
            include(m == mb ? op->a : op->b);
            include(m->a);
            include(m->b);
        } else {
            bump(op->type, FAddSub, IAddSub);
            IRGraphVisitor::visit(op);
        }
    }
    void visit(const Add *op) override { add_like(op); }
    void visit(const Sub *op) override { add_like(op); }
    void visit(const Mul *op) override { bump(op->type, FMul, IMul); IRGraphVisitor::visit(op); }
    void visit(const Div *op) override { bump(op->type, FDivMod, IDivMod); IRGraphVisitor::visit(op); }
    void visit(const Mod *op) override { bump(op->type, FDivMod, IDivMod); IRGraphVisitor::visit(op); }
    void visit(const Min *op) override { bump(op->type, FCmp, ICmp); IRGraphVisitor::visit(op); }
    void visit(const Max *op) override { bump(op->type, FCmp, ICmp); IRGraphVisitor::visit(op); }
    void visit(const EQ *op) override { bump(op->a.type(), FCmp, ICmp); IRGraphVisitor::visit(op); }
    void visit(const NE *op) override { bump(op->a.type(), FCmp, ICmp); IRGraphVisitor::visit(op); }
    void visit(const LT *op) override { bump(op->a.type(), FCmp, ICmp); IRGraphVisitor::visit(op); }
    void visit(const LE *op) override { bump(op->a.type(), FCmp, ICmp); IRGraphVisitor::visit(op); }
    void visit(const GT *op) override { bump(op->a.type(), FCmp, ICmp); IRGraphVisitor::visit(op); }
    void visit(const GE *op) override { bump(op->a.type(), FCmp, ICmp); IRGraphVisitor::visit(op); }
    void visit(const And *op) override { n[BoolOp]++; IRGraphVisitor::visit(op); }
    void visit(const Or *op) override { n[BoolOp]++; IRGraphVisitor::visit(op); }
    void visit(const Not *op) override { n[BoolOp]++; IRGraphVisitor::visit(op); }
    void visit(const Select *op) override { n[SelectOp]++; IRGraphVisitor::visit(op); }
    void visit(const Call *op) override {
        if (op->call_type == Call::Halide || op->call_type == Call::Image) {
            calls.push_back(op);
        } else if (op->is_intrinsic(Call::if_then_else)) {
            n[SelectOp]++;
        } else if (is_transparent_intrinsic(op)) {
            // Hints and reinterpretations cost nothing.
        } else if (op->call_type == Call::PureExtern || op->call_type == Call::Extern ||
                   op->call_type == Call::ExternCPlusPlus) {
            bump(op->type, FMath, IMath);
        } else {
            bump(op->type, FOther, IOther);
        }
        IRGraphVisitor::visit(op);
    }
};

bool const_value(const Expr &e, double &v) {
    if (const IntImm *i = e.as<IntImm>()) { v = (double)i->value; return true; }
    if (const UIntImm *u = e.as<UIntImm>()) { v = (double)u->value; return true; }
    if (const FloatImm *f = e.as<FloatImm>()) { v = f->value; return true; }
    if (const Cast *c = e.as<Cast>()) return const_value(c->value, v);
    return false;
}

// Writes an index expression as an affine form of the slots. Non-affine
// parts are approximated (see docs/features.md): x / c as x * (1/c), x % c
// as x, a clamp or min/max against a constant as its other operand, a
// select as its true value, anything else (products of variables,
// data-dependent indices) as a constant 0.
class Linearizer {
public:
    explicit Linearizer(const std::vector<std::string> &slots) : slots_(slots) {}
    std::vector<double> form(const Expr &e) {
        std::vector<double> f(1 + slots_.size(), 0.0);
        add(e, 1.0, f.data(), 0);
        return f;
    }

private:
    void add(const Expr &e, double s, double *f, int depth) {
        if (!e.defined() || depth > 200 || s == 0) return;
        depth++;
        double c;
        if (const_value(e, c)) {
            f[0] += s * c;
        } else if (const Variable *v = e.as<Variable>()) {
            for (auto it = lets_.rbegin(); it != lets_.rend(); ++it) {
                if (it->first == v->name) {
                    add(it->second, s, f, depth);
                    return;
                }
            }
            for (size_t i = 0; i < slots_.size(); i++) {
                if (slots_[i] == v->name) {
                    f[1 + i] += s;
                    return;
                }
            }
        } else if (const Add *a = e.as<Add>()) {
            add(a->a, s, f, depth);
            add(a->b, s, f, depth);
        } else if (const Sub *b = e.as<Sub>()) {
            add(b->a, s, f, depth);
            add(b->b, -s, f, depth);
        } else if (const Mul *m = e.as<Mul>()) {
            if (const_value(m->b, c)) add(m->a, s * c, f, depth);
            else if (const_value(m->a, c)) add(m->b, s * c, f, depth);
        } else if (const Div *d = e.as<Div>()) {
            if (const_value(d->b, c) && c != 0) add(d->a, s / c, f, depth);
        } else if (const Mod *md = e.as<Mod>()) {
            add(md->a, s, f, depth);
        } else if (const Min *mn = e.as<Min>()) {
            add(const_value(mn->a, c) ? mn->b : mn->a, s, f, depth);
        } else if (const Max *mx = e.as<Max>()) {
            add(const_value(mx->a, c) ? mx->b : mx->a, s, f, depth);
        } else if (const Cast *cs = e.as<Cast>()) {
            add(cs->value, s, f, depth);
        } else if (const Let *l = e.as<Let>()) {
            lets_.emplace_back(l->name, l->value);
            add(l->body, s, f, depth);
            lets_.pop_back();
        } else if (const Select *sel = e.as<Select>()) {
            add(sel->true_value, s, f, depth);
        } else if (const Call *call = e.as<Call>()) {
            if (call->is_intrinsic(Call::return_second) && call->args.size() == 2) {
                add(call->args[1], s, f, depth);
            } else if (call->is_intrinsic(Call::if_then_else) && call->args.size() >= 2) {
                add(call->args[1], s, f, depth);
            } else if (is_transparent_intrinsic(call) && !call->args.empty()) {
                add(call->args[0], s, f, depth);
            }
        }
    }

    const std::vector<std::string> &slots_;
    std::vector<std::pair<std::string, Expr>> lets_;
};

void add_access(Template &t, BufKind kind, int index, int elem_bytes, bool read, bool write, std::vector<double> form) {
    int ns = t.nslots();
    int dims = (int)form.size() / (1 + ns);
    int b = -1;
    for (size_t i = 0; i < t.buffers.size(); i++) {
        if (t.buffers[i].kind == kind && t.buffers[i].index == index) b = (int)i;
    }
    if (b < 0) {
        TBuffer nb;
        nb.kind = kind;
        nb.index = index;
        nb.elem_bytes = std::max(1, elem_bytes);
        nb.dims = dims;
        nb.dim_offset = t.total_buffer_dims;
        t.total_buffer_dims += dims;
        t.buffers.push_back(nb);
        b = (int)t.buffers.size() - 1;
    }
    TBuffer &buf = t.buffers[b];
    buf.read |= read;
    buf.write |= write;
    if ((int)form.size() != buf.dims * (1 + ns)) form.resize(buf.dims * (1 + ns), 0.0);
    for (int a : buf.accesses) {
        if (t.accesses[a].form == form) return;  // the same element again: one access
    }
    TAccess acc;
    acc.buffer = b;
    acc.form = std::move(form);
    acc.dim_offset = t.total_access_dims;
    t.total_access_dims += buf.dims;
    buf.accesses.push_back((int)t.accesses.size());
    t.accesses.push_back(std::move(acc));
}

std::vector<double> unit_forms(const Template &t, const std::vector<int> &slots) {
    int ns = t.nslots();
    std::vector<double> f(slots.size() * (1 + ns), 0.0);
    for (size_t d = 0; d < slots.size(); d++) {
        if (slots[d] >= 0) f[d * (1 + ns) + 1 + slots[d]] = 1.0;
    }
    return f;
}

void finish_ops(Template &t) {
    t.ops = 0;
    for (int i = 0; i < kArith; i++) t.ops += t.arith[i];
    t.ops += t.arith[FMad] + t.arith[IMad];
}

int slot_of(const Template &t, const std::string &name) {
    for (size_t i = 0; i < t.slot_names.size(); i++) {
        if (t.slot_names[i] == name) return (int)i;
    }
    return -1;
}

// ---------------------------------------------------------------------------
// The per-state part.

struct NestLoop {
    double extent = 1;
    int func = -1, stage = 0, loop = -1;  // the model loop this (virtual) loop belongs to
    int base = -1;                        // base variable of the owner stage it walks, -1 if unknown
    bool first = true;                    // first virtual loop of its model loop
};

struct Nest {
    int gen = 0;
    const Template *t = nullptr;
    int chain = 0;  // loops that belong to the Funcs this one is computed in
    std::vector<NestLoop> loops;
    std::vector<double> coef;  // loops x slots: how far one step of the loop moves each slot
};

enum class Role : uint8_t { Regular, Merge, IntmInit, IntmUpdate };

struct Variant {
    Role role;
    int stage;
    std::vector<bool> reaching;  // the inlined Funcs that reach this node (PipelineDAG::inlined_into)
    std::vector<std::string> names;
    std::unique_ptr<Template> t;
};

struct Image {
    std::string name;
    std::vector<int64_t> extents;
};

struct BufferOut {
    double bytes, unique_bytes, lines, unique_lines;
    int reuse;  // 0 loop, 1 serial, 2 none
    double dis_iter, dis_bytes, ct, stride;
    bool read, write;
};

}  // namespace

struct FeatureExtractor::Impl {
    const PipelineDAG &dag;
    double line_bytes;
    std::vector<Image> images;
    std::vector<std::vector<Variant>> variants;  // per DAG node

    // Scratch, reused between calls.
    int gen = 0;
    std::vector<int> node_func, intm_func, origin, stmt_off, at_func, at_stage, at_loop;
    std::vector<bool> inlined;  // per DAG node: inlined in the program being featurised
    std::vector<Nest> nests;
    std::vector<double> run_mult;
    std::vector<std::vector<std::pair<int, double>>> resolution;
    std::vector<double> lo, hi, bext, bstride, level_x, level_y;
    std::vector<int> acc_p, buf_depth, buf_reuse, order;
    std::vector<double> acc_stride;
    std::vector<BufferOut> bout;

    Impl(const PipelineDAG &d, int line) : dag(d), line_bytes(std::max(1, line)), variants(d.nodes().size()) {
        for (const InputInfo &in : dag.inputs()) {
            if (in.dimensions == 0) continue;
            Image im;
            im.name = in.name;
            for (const auto &r : in.region) im.extents.push_back(r.extent);
            images.push_back(std::move(im));
        }
    }

    int image_index(const Call *c) {
        for (size_t i = 0; i < images.size(); i++) {
            if (images[i].name == c->name) return (int)i;
        }
        // A Buffer baked into the pipeline rather than an input parameter.
        Image im;
        im.name = c->name;
        if (c->image.defined()) {
            for (int d = 0; d < c->image.dimensions(); d++) im.extents.push_back(c->image.dim(d).extent());
        }
        images.push_back(std::move(im));
        return (int)images.size() - 1;
    }

    Expr inline_all(Expr e, const std::vector<bool> &inl) const {
        if (!e.defined()) return e;
        for (size_t pass = 0; pass <= inl.size(); pass++) {
            bool changed = false;
            for (size_t k = 0; k < inl.size(); k++) {
                if (!inl[k]) continue;
                Expr before = e;
                e = inline_calls(e, dag.node((int)k).func);
                changed |= !before.same_as(e);
            }
            if (!changed) break;
        }
        return e;
    }

    // A stage's own definition (or, for the intermediate of an rfactor, the
    // factored update with the Func's self-calls moved to the intermediate).
    std::unique_ptr<Template> build_definition(int node, int stage, BufKind self, const std::vector<std::string> &extra) {
        const Node &n = dag.node(node);
        auto t = std::make_unique<Template>();
        if (stage < (int)n.stages.size()) {
            for (const StageLoop &l : n.stages[stage].loops) {
                t->slot_names.push_back(l.var);
                t->slot_kinds.push_back(l.kind);
            }
        }
        std::vector<int> extra_slots;
        for (const auto &e : extra) {
            extra_slots.push_back(t->nslots());
            t->slot_names.push_back(e);
            t->slot_kinds.push_back(LoopKind::Space);
        }
        for (const auto &a : n.pure_args) t->pure_slot.push_back(slot_of(*t, a));
        for (int s : extra_slots) t->pure_slot.push_back(s);
        if (n.func.has_extern_definition()) return t;
        if (stage > (int)n.func.updates().size()) return t;
        const Definition &def = stage == 0 ? n.func.definition() : n.func.updates()[stage - 1];
        if (!def.defined()) return t;

        const std::vector<bool> inl = dag.inlined_into(node, inlined);
        std::vector<Expr> args, values;
        for (const Expr &e : def.args()) args.push_back(inline_all(e, inl));
        for (const Expr &e : def.values()) values.push_back(inline_all(e, inl));
        Expr pred = inline_all(def.predicate(), inl);

        OpCounter oc;
        for (const Expr &v : values) v.accept(&oc);
        for (const Expr &a : args) a.accept(&oc);
        if (pred.defined() && !is_const_one(pred)) pred.accept(&oc);
        t->arith = oc.n;
        finish_ops(*t);

        Linearizer lin(t->slot_names);
        const int ns = t->nslots();
        auto self_form = [&](const std::vector<Expr> &self_args) {
            std::vector<double> f;
            for (const Expr &a : self_args) {
                std::vector<double> row = lin.form(a);
                f.insert(f.end(), row.begin(), row.end());
            }
            for (int s : extra_slots) {
                std::vector<double> row(1 + ns, 0.0);
                row[1 + s] = 1.0;
                f.insert(f.end(), row.begin(), row.end());
            }
            return f;
        };
        t->write_bytes = values.empty() ? 4 : values[0].type().bytes();
        add_access(*t, self, node, t->write_bytes, false, true, self_form(args));
        for (const Call *c : oc.calls) {
            if (c->call_type == Call::Halide) {
                if (c->name == n.name) {
                    add_access(*t, self, node, c->type.bytes(), true, false, self_form(c->args));
                    continue;
                }
                auto idx = dag.index_of(c->name);
                if (!idx) continue;
                std::vector<double> f;
                for (const Expr &a : c->args) {
                    std::vector<double> row = lin.form(a);
                    f.insert(f.end(), row.begin(), row.end());
                }
                add_access(*t, BufKind::Func, *idx, c->type.bytes(), true, false, std::move(f));
            } else {
                int im = image_index(c);
                std::vector<double> f;
                for (const Expr &a : c->args) {
                    std::vector<double> row = lin.form(a);
                    f.insert(f.end(), row.begin(), row.end());
                }
                add_access(*t, BufKind::Input, im, c->type.bytes(), true, false, std::move(f));
            }
        }
        return t;
    }

    // The update of a factored Func: it now folds the intermediate into itself.
    std::unique_ptr<Template> build_merge(int node, const std::vector<StageLoop> &base) {
        const Node &n = dag.node(node);
        auto t = std::make_unique<Template>();
        for (const StageLoop &l : base) {
            t->slot_names.push_back(l.var);
            t->slot_kinds.push_back(l.kind);
        }
        std::vector<int> intm_slots;
        for (const auto &a : n.pure_args) {
            t->pure_slot.push_back(slot_of(*t, a));
            intm_slots.push_back(t->pure_slot.back());
        }
        for (int i = 0; i < t->nslots(); i++) {
            if (t->slot_kinds[i] == LoopKind::Reduction) intm_slots.push_back(i);
        }
        Type type = Float(32);
        int stage = (int)n.stages.size() - 1;
        if (stage >= 1 && stage - 1 < (int)n.func.updates().size()) {
            const Definition &def = n.func.updates()[stage - 1];
            if (def.defined() && !def.values().empty()) {
                const Expr &v = def.values()[0];
                type = v.type();
                int col = type.is_float() ? FAddSub : IAddSub;
                if (v.as<Mul>()) col = type.is_float() ? FMul : IMul;
                else if (v.as<Min>() || v.as<Max>()) col = type.is_float() ? FCmp : ICmp;
                else if (v.as<Select>()) col = SelectOp;
                else if (v.as<Call>()) col = type.is_float() ? FOther : IOther;
                else if (type.is_bool()) col = BoolOp;
                t->arith[col] = 1;
            }
        }
        finish_ops(*t);
        t->write_bytes = type.bytes();
        add_access(*t, BufKind::Func, node, type.bytes(), true, true, unit_forms(*t, t->pure_slot));
        add_access(*t, BufKind::Intm, node, type.bytes(), true, false, unit_forms(*t, intm_slots));
        return t;
    }

    // The pure definition of an rfactor intermediate: the reduction's identity.
    std::unique_ptr<Template> build_intm_init(int node, const ModelFunc &f) {
        const Node &n = dag.node(node);
        auto t = std::make_unique<Template>();
        for (const StageLoop &l : f.base_stages[0]) {
            t->slot_names.push_back(l.var);
            t->slot_kinds.push_back(l.kind);
        }
        for (const auto &a : f.pure_args) t->pure_slot.push_back(slot_of(*t, a));
        finish_ops(*t);
        Type type = n.func.output_types().empty() ? Float(32) : n.func.output_types()[0];
        t->write_bytes = type.bytes();
        add_access(*t, BufKind::Intm, node, type.bytes(), false, true, unit_forms(*t, t->pure_slot));
        return t;
    }

    const Template *lookup(const LoopNest &m, int fi, int s) {
        const ModelFunc &f = m.funcs()[fi];
        int node = origin[fi];
        Role role;
        const std::vector<StageLoop> *names_from = nullptr;
        int extra_from = 0;
        if (f.dag_index >= 0) {
            role = (intm_func[node] >= 0 && s + 1 == (int)f.stages.size() && s > 0) ? Role::Merge : Role::Regular;
            if (role == Role::Merge) names_from = &f.base_stages[s];
        } else {
            role = s == 0 ? Role::IntmInit : Role::IntmUpdate;
            if (role == Role::IntmInit) names_from = &f.base_stages[0];
            extra_from = (int)dag.node(node).pure_args.size();
        }
        auto same_names = [&](const std::vector<std::string> &names) {
            if (role == Role::IntmUpdate) {
                if ((int)f.pure_args.size() - extra_from != (int)names.size()) return false;
                for (size_t i = 0; i < names.size(); i++) {
                    if (names[i] != f.pure_args[extra_from + i]) return false;
                }
                return true;
            }
            if (!names_from) return names.empty();
            if (names_from->size() != names.size()) return false;
            for (size_t i = 0; i < names.size(); i++) {
                if (names[i] != (*names_from)[i].var) return false;
            }
            return true;
        };
        // Keyed on the inlining that reaches this node only (see
        // PipelineDAG::inlined_into): the program's whole inlining differs
        // in nearly every candidate of a large pipeline.
        std::vector<bool> reaching = dag.inlined_into(node, inlined);
        for (const Variant &v : variants[node]) {
            if (v.role == role && v.stage == s && v.reaching == reaching && same_names(v.names)) return v.t.get();
        }
        Variant v;
        v.role = role;
        v.stage = s;
        v.reaching = std::move(reaching);
        if (role == Role::IntmUpdate) {
            v.names.assign(f.pure_args.begin() + std::min<size_t>(extra_from, f.pure_args.size()), f.pure_args.end());
        } else if (names_from) {
            for (const auto &l : *names_from) v.names.push_back(l.var);
        }
        switch (role) {
        case Role::Regular: v.t = build_definition(node, s, BufKind::Func, {}); break;
        case Role::Merge: v.t = build_merge(node, f.base_stages[s]); break;
        case Role::IntmInit: v.t = build_intm_init(node, f); break;
        case Role::IntmUpdate:
            v.t = build_definition(node, (int)dag.node(node).stages.size() - 1, BufKind::Intm, v.names);
            break;
        }
        variants[node].push_back(std::move(v));
        return variants[node].back().t.get();
    }

    // Maps a base variable of an rfactor intermediate's update (a split
    // piece such as r_1, or a preserved piece r_0_v) to the definition's
    // slots, with the step of the slot per step of the variable.
    void resolve(const Template &t, const std::vector<StageLoop> &base, const std::string &name, double mult,
                 int depth, std::vector<std::pair<int, double>> &out) const {
        int exact = slot_of(t, name);
        if (exact >= 0) out.emplace_back(exact, mult);
        if (depth > 4) return;
        std::string n = name;
        if (n.size() > 2 && n.compare(n.size() - 2, 2, "_v") == 0) n.resize(n.size() - 2);
        size_t us = n.rfind('_');
        if (us == std::string::npos || us + 1 >= n.size()) return;
        for (size_t i = us + 1; i < n.size(); i++) {
            if (n[i] < '0' || n[i] > '9') return;
        }
        int piece = std::atoi(n.c_str() + us + 1);
        std::string stem = n.substr(0, us);
        // Inner pieces of the same split step the stem by their extents.
        double inner = 1;
        for (const StageLoop &b : base) {
            if (b.var.size() <= stem.size() + 1 || b.var.compare(0, stem.size(), stem) != 0 || b.var[stem.size()] != '_') {
                continue;
            }
            int j = std::atoi(b.var.c_str() + stem.size() + 1);
            if (j > piece) inner *= (double)std::max<int64_t>(1, b.extent);
        }
        if (exact < 0 || n != name) resolve(t, base, stem, mult * inner, depth + 1, out);
    }

    Nest &nest(const LoopNest &m, int fi, int s) {
        Nest &N = nests[stmt_off[fi] + s];
        if (N.gen == gen || N.gen == -gen) return N;  // built, or being built (a cycle: no chain)
        N.gen = -gen;
        const ModelFunc &f = m.funcs()[fi];
        const Template *t = lookup(m, fi, s);
        N.t = t;
        const int ns = t->nslots();
        N.loops.clear();
        N.coef.clear();

        // Loops of the Funcs this one is computed in, with their steps
        // carried into this definition's variables through the consumer's
        // access to this Func.
        if (at_func[fi] >= 0 && at_loop[fi] >= 0) {
            Nest &C = nest(m, at_func[fi], at_stage[fi]);
            int p = -1;
            for (int v = (int)C.loops.size() - 1; v >= 0; v--) {
                const NestLoop &L = C.loops[v];
                if (L.func == at_func[fi] && L.stage == at_stage[fi] && L.loop == at_loop[fi]) {
                    p = v;
                    break;
                }
            }
            if (p >= 0 && C.gen == gen) {
                BufKind kind = f.dag_index >= 0 ? BufKind::Func : BufKind::Intm;
                const TAccess *J = nullptr;
                int jdims = 0;
                for (const TBuffer &b : C.t->buffers) {
                    if (b.kind == kind && b.index == origin[fi] && !b.accesses.empty()) {
                        J = &C.t->accesses[b.accesses[0]];
                        jdims = b.dims;
                        break;
                    }
                }
                const int cns = C.t->nslots();
                N.loops.assign(C.loops.begin(), C.loops.begin() + p + 1);
                N.coef.assign((size_t)(p + 1) * ns, 0.0);
                if (J) {
                    int dims = std::min<int>(jdims, (int)t->pure_slot.size());
                    for (int v = 0; v <= p; v++) {
                        const double *crow = &C.coef[(size_t)v * cns];
                        for (int d = 0; d < dims; d++) {
                            int j = t->pure_slot[d];
                            if (j < 0) continue;
                            const double *row = &J->form[(size_t)d * (1 + cns)];
                            double sum = 0;
                            for (int i = 0; i < cns; i++) sum += row[1 + i] * crow[i];
                            N.coef[(size_t)v * ns + j] += sum;
                        }
                    }
                }
            }
        }
        N.chain = (int)N.loops.size();

        // Own loops; a fused loop walks each of its origins in turn.
        const ModelStage &st = f.stages[s];
        const std::vector<StageLoop> &base = f.base_stages[s];
        auto find_base = [&](const std::string &name) {
            for (size_t i = 0; i < base.size(); i++) {
                if (base[i].var == name) return (int)i;
            }
            return -1;
        };
        for (int l = 0; l < (int)st.loops.size(); l++) {
            const ModelLoop &L = st.loops[l];
            NestLoop v;
            v.func = fi;
            v.stage = s;
            v.loop = l;
            if (L.origins.size() <= 1) {
                v.extent = (double)std::max<int64_t>(1, L.extent);
                v.base = L.origins.empty() ? -1 : find_base(L.origins[0].first);
                N.loops.push_back(v);
            } else {
                for (size_t k = 0; k < L.origins.size(); k++) {
                    v.extent = (double)std::max<int64_t>(1, L.origins[k].second);
                    v.base = find_base(L.origins[k].first);
                    v.first = k == 0;
                    N.loops.push_back(v);
                }
            }
        }
        N.coef.resize(N.loops.size() * ns, 0.0);

        // Which slots a base variable steps: itself, except in an rfactor
        // intermediate's update whose variables are split pieces.
        bool identity = true;
        if (f.dag_index < 0 && s == 1) {
            identity = false;
            if (resolution.size() < base.size()) resolution.resize(base.size());
            for (size_t b = 0; b < base.size(); b++) {
                resolution[b].clear();
                resolve(*t, base, base[b].var, 1.0, 0, resolution[b]);
            }
        }
        run_mult.assign(base.size(), 1.0);
        for (int v = (int)N.loops.size() - 1; v >= N.chain; v--) {
            const NestLoop &L = N.loops[v];
            if (L.base < 0) continue;
            double step = run_mult[L.base];
            if (identity) {
                if (L.base < ns) N.coef[(size_t)v * ns + L.base] += step;
            } else {
                for (const auto &r : resolution[L.base]) N.coef[(size_t)v * ns + r.first] += step * r.second;
            }
            run_mult[L.base] *= L.extent;
        }
        N.gen = gen;
        return N;
    }

    // The position one-hot of an annotated model loop.
    int position(const LoopNest &m, const Nest &N, int v) const {
        const NestLoop &L = N.loops[v];
        const std::vector<StageLoop> &base = m.funcs()[L.func].base_stages[L.stage];
        bool space = false, reduce = false;
        int first_base = -1;
        for (int u = v; u < (int)N.loops.size(); u++) {
            const NestLoop &U = N.loops[u];
            if (u > v && U.first) break;
            if (U.base < 0) return kPosMixed;
            if (first_base < 0) first_base = U.base;
            (base[U.base].kind == LoopKind::Space ? space : reduce) = true;
        }
        if (first_base < 0 || (space && reduce)) return kPosMixed;
        LoopKind kind = base[first_base].kind;
        int rank = 0, count = 0;
        for (int i = 0; i < (int)base.size(); i++) {
            if (base[i].kind != kind) continue;
            if (i < first_base) rank++;
            count++;
        }
        bool sp = kind == LoopKind::Space;
        if (rank == count - 1) return sp ? kPosInnerSpatial : kPosInnerReduce;
        if (rank == 0) return sp ? kPosOuterSpatial : kPosOuterReduce;
        return sp ? kPosMiddleSpatial : kPosMiddleReduce;
    }

    void compute(const LoopNest &m, int fi, int s, StageFeatures &out);
    void extract(const LoopNest &m, std::vector<StageFeatures> &out);
};

void FeatureExtractor::Impl::extract(const LoopNest &m, std::vector<StageFeatures> &out) {
    if (&m.dag() != &dag) throw std::invalid_argument("FeatureExtractor: the loop nest belongs to another PipelineDAG");
    const auto &funcs = m.funcs();
    const int nf = (int)funcs.size();
    const int nn = (int)dag.nodes().size();
    gen = gen == std::numeric_limits<int>::max() ? 1 : gen + 1;
    node_func.assign(nn, -1);
    intm_func.assign(nn, -1);
    origin.assign(nf, -1);
    stmt_off.resize(nf + 1);
    inlined.assign(nn, false);
    int total = 0;
    for (int fi = 0; fi < nf; fi++) {
        const ModelFunc &f = funcs[fi];
        if (f.dag_index >= 0) {
            origin[fi] = f.dag_index;
            node_func[f.dag_index] = fi;
            inlined[f.dag_index] = f.location.kind == LocationKind::Inline;
        } else {
            auto idx = dag.index_of(f.created_from);
            origin[fi] = idx ? *idx : -1;
            if (idx) intm_func[*idx] = fi;
        }
        stmt_off[fi] = total;
        total += (int)f.stages.size();
    }
    stmt_off[nf] = total;
    if ((int)nests.size() < total) nests.resize(total);
    at_func.assign(nf, -1);
    at_stage.assign(nf, 0);
    at_loop.assign(nf, -1);
    for (int fi = 0; fi < nf; fi++) {
        const Location &loc = funcs[fi].location;
        if (loc.kind != LocationKind::At) continue;
        for (int c = 0; c < nf; c++) {
            if (funcs[c].name != loc.func) continue;
            if (loc.stage >= 0 && loc.stage < (int)funcs[c].stages.size()) {
                at_func[fi] = c;
                at_stage[fi] = loc.stage;
                at_loop[fi] = funcs[c].stages[loc.stage].find(loc.loop);
            }
            break;
        }
    }

    size_t count = 0;
    for (int fi = 0; fi < nf; fi++) {
        const ModelFunc &f = funcs[fi];
        if (f.location.kind == LocationKind::Inline || origin[fi] < 0) continue;
        count += f.stages.size();
    }
    out.resize(count);
    size_t k = 0;
    for (int fi = 0; fi < nf; fi++) {
        const ModelFunc &f = funcs[fi];
        if (f.location.kind == LocationKind::Inline || origin[fi] < 0) continue;
        for (int s = 0; s < (int)f.stages.size(); s++) compute(m, fi, s, out[k++]);
    }
}

void FeatureExtractor::Impl::compute(const LoopNest &m, int fi, int s, StageFeatures &out) {
    out.func = fi;
    out.stage = s;
    float *F = out.values.data();
    std::fill(out.values.begin(), out.values.end(), 0.f);

    const auto &funcs = m.funcs();
    const ModelFunc &f = funcs[fi];
    Nest &N = nest(m, fi, s);
    const Template &t = *N.t;
    const int ns = t.nslots();
    const int n = (int)N.loops.size();

    // Iterations: the product of the model loops' extents.
    double iters = 1, chain_iters = 1;
    int real_loops = 0;
    for (int v = 0; v < n; v++) {
        const NestLoop &L = N.loops[v];
        if (!L.first) continue;
        const ModelLoop &ml = funcs[L.func].stages[L.stage].loops[L.loop];
        double e = (double)std::max<int64_t>(1, ml.extent);
        iters *= e;
        if (v < N.chain) chain_iters *= e;
        real_loops++;
    }

    // Arithmetic.
    for (int i = 0; i < kArith; i++) F[kArithBegin + i] = slog(t.arith[i] * iters);

    // Annotations: vectorize, unroll, parallel.
    {
        const Annotation kinds[3] = {Annotation::Vectorize, Annotation::Unroll, Annotation::Parallel};
        const int begins[3] = {kVecBegin, kUnrollBegin, kParallelBegin};
        for (int a = 0; a < 3; a++) {
            int num = 0, innermost = -1;
            double prod = 1, len = 0;
            for (int v = 0; v < n; v++) {
                const NestLoop &L = N.loops[v];
                if (!L.first) continue;
                const ModelLoop &ml = funcs[L.func].stages[L.stage].loops[L.loop];
                if (ml.annotation != kinds[a]) continue;
                num++;
                prod *= (double)std::max<int64_t>(1, ml.extent);
                len = (double)std::max<int64_t>(1, ml.extent);
                innermost = v;
            }
            float *G = F + begins[a];
            G[kAnnNum] = (float)num;
            G[kAnnProd] = num ? slog(prod) : 0.f;
            G[kAnnLen] = slog(len);
            G[innermost < 0 ? kPosNone : position(m, N, innermost)] = 1.f;
        }
    }
    // GPU bindings: none on CPU (the columns stay 0).

    // Buffer accesses.
    const int nb = (int)t.buffers.size();
    const int na = (int)t.accesses.size();
    bext.assign(t.total_buffer_dims, 0.0);
    bstride.assign(t.total_buffer_dims, 0.0);
    buf_depth.assign(nb, 0);
    buf_reuse.assign(nb, -1);
    bout.assign(nb, BufferOut{});
    for (int b = 0; b < nb; b++) {
        const TBuffer &B = t.buffers[b];
        const std::vector<int64_t> *ext = nullptr;
        int mf = -1;
        if (B.kind == BufKind::Func) mf = node_func[B.index];
        else if (B.kind == BufKind::Intm) mf = intm_func[B.index];
        if (mf >= 0) ext = &funcs[mf].extents;
        else if (B.kind == BufKind::Input && B.index < (int)images.size()) ext = &images[B.index].extents;
        double stride = 1;
        for (int d = 0; d < B.dims; d++) {
            double e = ext && d < (int)ext->size() ? (double)(*ext)[d] : 0.0;
            bext[B.dim_offset + d] = e;
            bstride[B.dim_offset + d] = stride;
            stride *= std::max(1.0, e);
        }
        // A Func computed inside loops is addressed relative to them.
        if (mf >= 0 && at_func[mf] >= 0) {
            for (int v = n - 1; v >= 0; v--) {
                const NestLoop &L = N.loops[v];
                if (L.func == at_func[mf] && L.stage == at_stage[mf] && L.loop == at_loop[mf]) {
                    buf_depth[b] = v + 1;
                    break;
                }
            }
        }
    }
    lo.resize(t.total_access_dims);
    hi.resize(t.total_access_dims);
    acc_p.assign(na, -1);
    acc_stride.assign(na, 0.0);
    for (int a = 0; a < na; a++) {
        const TAccess &A = t.accesses[a];
        const int dims = t.buffers[A.buffer].dims;
        for (int d = 0; d < dims; d++) lo[A.dim_offset + d] = hi[A.dim_offset + d] = A.form[(size_t)d * (1 + ns)];
    }
    // Bytes touched by the loops inside a level: one level per loop, from
    // the innermost (only the statement itself) outwards.
    auto level_bytes = [&](bool record_unique) {
        double total = 0;
        for (int b = 0; b < nb; b++) {
            const TBuffer &B = t.buffers[b];
            double volume = 1, run = 1, rest = 1;
            bool contiguous = true;
            for (int d = 0; d < B.dims; d++) {
                double mn = 0, mx = 0;
                bool firsta = true;
                for (int a : B.accesses) {
                    const int o = t.accesses[a].dim_offset + d;
                    if (firsta || lo[o] < mn) mn = lo[o];
                    if (firsta || hi[o] > mx) mx = hi[o];
                    firsta = false;
                }
                double w = std::floor(mx - mn + 1e-9) + 1;
                double e = bext[B.dim_offset + d];
                if (e > 0 && w > e) w = e;
                if (w < 1) w = 1;
                volume *= w;
                if (record_unique) {
                    // Dimensions covered whole continue the innermost run.
                    if (contiguous) run *= w;
                    else rest *= w;
                    if (!(e > 0 && w >= e)) contiguous = false;
                }
            }
            if (record_unique) {
                bout[b].unique_bytes = volume * B.elem_bytes;
                bout[b].unique_lines = std::ceil(run * B.elem_bytes / line_bytes - 1e-9) * rest;
            }
            total += volume * B.elem_bytes;
        }
        return total;
    };

    level_x.clear();
    level_y.clear();
    double prev_bytes = level_bytes(false);
    const double per_iter_bytes = prev_bytes;
    double inner = 1;
    for (int v = n - 1; v >= 0; v--) {
        const NestLoop &L = N.loops[v];
        const double e = L.extent;
        const double *crow = &N.coef[(size_t)v * ns];
        for (int b = 0; b < nb; b++) {
            const TBuffer &B = t.buffers[b];
            bool all_zero = true;
            for (int a : B.accesses) {
                const TAccess &A = t.accesses[a];
                double flat = 0;
                if (v >= buf_depth[b]) {
                    for (int d = 0; d < B.dims; d++) {
                        const double *row = &A.form[(size_t)d * (1 + ns) + 1];
                        double c = 0;
                        for (int i = 0; i < ns; i++) c += row[i] * crow[i];
                        if (c == 0) continue;
                        all_zero = false;
                        double span = c * (e - 1);
                        if (span > 0) hi[A.dim_offset + d] += span;
                        else lo[A.dim_offset + d] += span;
                        flat += c * bstride[B.dim_offset + d];
                    }
                }
                if (flat != 0 && e > 1 && acc_p[a] < 0) {
                    acc_p[a] = v;
                    acc_stride[a] = std::fabs(flat);
                }
            }
            if (buf_reuse[b] < 0 && all_zero && e > 1 && v >= buf_depth[b]) {
                buf_reuse[b] = v;
                bout[b].ct = e;
                bout[b].dis_iter = inner;
                bout[b].dis_bytes = prev_bytes;
            }
        }
        inner *= e;
        prev_bytes = level_bytes(v == 0);
        if (t.ops > 0) {
            double ops = t.ops * inner;
            level_x.push_back(std::log2(1 + ops));
            level_y.push_back(ops / std::max(1.0, prev_bytes));
        }
    }
    if (n == 0) {
        level_bytes(true);
        if (t.ops > 0) {
            level_x.push_back(std::log2(1 + t.ops));
            level_y.push_back(t.ops / std::max(1.0, prev_bytes));
        }
    }

    for (int b = 0; b < nb; b++) {
        const TBuffer &B = t.buffers[b];
        BufferOut &o = bout[b];
        o.read = B.read;
        o.write = B.write;
        const double k = (double)B.accesses.size();
        o.bytes = iters * k * B.elem_bytes;
        o.lines = 0;
        int best_p = -2;
        o.stride = 0;
        for (int a : B.accesses) {
            int p = acc_p[a];
            if (p < 0) {
                o.lines += 1;
            } else {
                double outer = 1;
                for (int v = 0; v < p; v++) outer *= N.loops[v].extent;
                double e = N.loops[p].extent;
                double step = acc_stride[a] * B.elem_bytes;
                double sweep = step >= line_bytes ? e : std::ceil(e * step / line_bytes - 1e-9);
                o.lines += outer * sweep;
            }
            if (p > best_p || (p == best_p && acc_stride[a] < o.stride)) {
                best_p = p;
                o.stride = p < 0 ? 0 : acc_stride[a];
            }
        }
        if (buf_reuse[b] >= 0) {
            o.reuse = 0;
        } else if (B.accesses.size() > 1) {
            o.reuse = 1;
            o.ct = k - 1;
            o.dis_iter = 1;
            o.dis_bytes = per_iter_bytes;
        } else {
            o.reuse = 2;
            o.ct = o.dis_iter = o.dis_bytes = 0;
        }
    }
    // Most bytes first; ties keep the definition's order (written buffer first).
    order.resize(nb);
    for (int b = 0; b < nb; b++) order[b] = b;
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return bout[x].bytes > bout[y].bytes; });
    for (int i = 0; i < nb && i < kMaxBuffers; i++) {
        const BufferOut &o = bout[order[i]];
        float *G = F + kBufferBegin + i * kPerBuffer;
        G[o.read && o.write ? kAccReadWrite : o.write ? kAccWrite : kAccRead] = 1.f;
        G[kBytes] = slog(o.bytes);
        G[kUniqueBytes] = slog(o.unique_bytes);
        G[kLines] = slog(o.lines);
        G[kUniqueLines] = slog(o.unique_lines);
        G[kReuseLoop + o.reuse] = 1.f;
        G[kReuseDisIter] = slog(o.dis_iter);
        G[kReuseDisBytes] = slog(o.dis_bytes);
        G[kReuseCt] = slog(o.ct);
        const double div = std::max(1.0, o.ct);
        G[kBytesDReuseCt] = slog(o.bytes / div);
        G[kUniqueBytesDReuseCt] = slog(o.unique_bytes / div);
        G[kLinesDReuseCt] = slog(o.lines / div);
        G[kUniqueLinesDReuseCt] = slog(o.unique_lines / div);
        G[kStride] = slog(o.stride);
    }

    // Allocation of the Func's buffer, at its compute location.
    {
        double elems = 1;
        for (int64_t e : f.extents) elems *= (double)std::max<int64_t>(1, e);
        F[kAllocBegin + 0] = slog(elems * t.write_bytes);
        F[kAllocBegin + 1] = slog(elems * chain_iters);
        F[kAllocBegin + 2] = slog(chain_iters);
        F[kAllocBegin + 3] = slog(elems);
    }
    F[kOtherBegin + 0] = slog(iters);
    F[kOtherBegin + 1] = (float)real_loops;
    F[kOtherBegin + 2] = slog(f.stages[s].auto_unroll_max_step);

    // Arithmetic intensity curve: ops / bytes against log2(1 + ops), level
    // by level from the innermost loop out, sampled at ten even steps.
    const int np = (int)level_x.size();
    if (np > 0) {
        const double xmax = level_x.back();
        int p = 0;
        for (int i = 0; i < kCurvePoints; i++) {
            double x = xmax * (i + 1) / kCurvePoints;
            while (p < np - 1 && level_x[p] < x - 1e-9) p++;
            double y;
            if (p == 0 || level_x[p] <= level_x[p - 1]) {
                y = level_y[p];
            } else {
                double r = (x - level_x[p - 1]) / (level_x[p] - level_x[p - 1]);
                y = level_y[p - 1] + r * (level_y[p] - level_y[p - 1]);
            }
            F[kCurveBegin + i] = (float)y;
        }
    }
}

FeatureExtractor::FeatureExtractor(const PipelineDAG &dag, int cache_line_bytes)
    : impl_(std::make_unique<Impl>(dag, cache_line_bytes)) {}

FeatureExtractor::~FeatureExtractor() = default;

void FeatureExtractor::extract(const LoopNest &model, std::vector<StageFeatures> &out) { impl_->extract(model, out); }

std::vector<StageFeatures> FeatureExtractor::extract(const LoopNest &model) {
    std::vector<StageFeatures> out;
    impl_->extract(model, out);
    return out;
}

const PipelineDAG &FeatureExtractor::dag() const { return impl_->dag; }

std::vector<StageFeatures> extract_features(const LoopNest &model) {
    FeatureExtractor x(model.dag());
    return x.extract(model);
}

const std::vector<std::string> &feature_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const char *ty : {"float", "int"}) {
            for (const char *op : {"mad", "addsub", "mul", "divmod", "cmp", "math_func", "other_func"}) {
                v.push_back(std::string(ty) + "_" + op);
            }
        }
        v.push_back("bool_op");
        v.push_back("select_op");
        for (const char *a : {"vec", "unroll", "parallel"}) {
            for (const char *c : {"num", "prod", "len", "pos_inner_spatial", "pos_middle_spatial", "pos_outer_spatial",
                                  "pos_inner_reduce", "pos_middle_reduce", "pos_outer_reduce", "pos_mixed", "pos_none"}) {
                v.push_back(std::string(a) + "_" + c);
            }
        }
        for (const char *g : {"is_gpu", "blockIdx_x_len", "blockIdx_y_len", "blockIdx_z_len", "threadIdx_x_len",
                              "threadIdx_y_len", "threadIdx_z_len", "vthread_len"}) {
            v.push_back(g);
        }
        for (int b = 0; b < kMaxBuffers; b++) {
            for (const char *c : {"acc_type_read", "acc_type_write", "acc_type_read_write", "bytes", "unique_bytes",
                                  "lines", "unique_lines", "reuse_type_loop_multiple_read",
                                  "reuse_type_serial_multiple_read", "reuse_type_no_reuse", "reuse_dis_iter",
                                  "reuse_dis_bytes", "reuse_ct", "bytes_d_reuse_ct", "unique_bytes_d_reuse_ct",
                                  "lines_d_reuse_ct", "unique_lines_d_reuse_ct", "stride"}) {
                v.push_back("B" + std::to_string(b) + "_" + c);
            }
        }
        for (const char *c : {"alloc_size", "alloc_prod", "alloc_outer_prod", "alloc_inner_prod"}) v.push_back(c);
        for (const char *c : {"outer_prod", "num_loops", "auto_unroll_max_step"}) v.push_back(c);
        for (int i = 0; i < kCurvePoints; i++) v.push_back("arith_intensity_curve_" + std::to_string(i));
        return v;
    }();
    return names;
}

int feature_index(const std::string &name) {
    const auto &names = feature_names();
    for (size_t i = 0; i < names.size(); i++) {
        if (names[i] == name) return (int)i;
    }
    return -1;
}

}  // namespace ansor
