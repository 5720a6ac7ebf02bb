#include "features/detail/template_builder.h"

#include "dag/definition_analysis.h"
#include "features/detail/affine_forms.h"
#include "features/detail/arithmetic_counter.h"

#include <algorithm>

namespace ansor {
namespace features {
namespace detail {

using namespace Halide;
using namespace Halide::Internal;

ImageTable::ImageTable(const PipelineDAG &dag) {
    for (const InputInfo &in : dag.inputs()) {
        if (in.dimensions == 0) continue;
        Image im;
        im.name = in.name;
        for (const auto &r : in.region) im.extents.push_back(r.extent);
        images_.push_back(std::move(im));
    }
}

int ImageTable::index_of(const Call *c) {
    for (size_t i = 0; i < images_.size(); i++) {
        if (images_[i].name == c->name) return (int)i;
    }
    // A Buffer baked into the pipeline rather than an input parameter.
    Image im;
    im.name = c->name;
    if (c->image.defined()) {
        for (int d = 0; d < c->image.dimensions(); d++) im.extents.push_back(c->image.dim(d).extent());
    }
    images_.push_back(std::move(im));
    return (int)images_.size() - 1;
}

namespace {

void add_slots(DefinitionTemplate &t, const std::vector<StageLoop> &loops) {
    for (const StageLoop &l : loops) {
        t.slot_names.push_back(l.var);
        t.slot_kinds.push_back(l.kind);
    }
}

void finish_ops(DefinitionTemplate &t) {
    t.ops = 0;
    for (int i = 0; i < kArith; i++) t.ops += t.arith[i];
    t.ops += t.arith[FMad] + t.arith[IMad];
}

// Records an access to a buffer (added on first use); the same element
// accessed again is one access.
void add_access(DefinitionTemplate &t, BufKind kind, int index, int elem_bytes, bool read, bool write,
                std::vector<double> form) {
    int ns = t.nslots();
    int dims = (int)form.size() / (1 + ns);
    int b = -1;
    for (size_t i = 0; i < t.buffers.size(); i++) {
        if (t.buffers[i].kind == kind && t.buffers[i].index == index) b = (int)i;
    }
    if (b < 0) {
        TemplateBuffer nb;
        nb.kind = kind;
        nb.index = index;
        nb.elem_bytes = std::max(1, elem_bytes);
        nb.dims = dims;
        nb.dim_offset = t.total_buffer_dims;
        t.total_buffer_dims += dims;
        t.buffers.push_back(nb);
        b = (int)t.buffers.size() - 1;
    }
    TemplateBuffer &buf = t.buffers[b];
    buf.read |= read;
    buf.write |= write;
    if ((int)form.size() != buf.dims * (1 + ns)) form.resize(buf.dims * (1 + ns), 0.0);
    for (int a : buf.accesses) {
        if (t.accesses[a].form == form) return;  // the same element again: one access
    }
    TemplateAccess acc;
    acc.buffer = b;
    acc.form = std::move(form);
    acc.dim_offset = t.total_access_dims;
    t.total_access_dims += buf.dims;
    buf.accesses.push_back((int)t.accesses.size());
    t.accesses.push_back(std::move(acc));
}

// Forms with one row per given slot, each stepping with that slot only.
std::vector<double> unit_forms(const DefinitionTemplate &t, const std::vector<int> &slots) {
    int ns = t.nslots();
    std::vector<double> f(slots.size() * (1 + ns), 0.0);
    for (size_t d = 0; d < slots.size(); d++) {
        if (slots[d] >= 0) f[d * (1 + ns) + 1 + slots[d]] = 1.0;
    }
    return f;
}

// The write of the definition, then its reads in order of appearance.
void add_definition_accesses(const BuildContext &ctx, DefinitionTemplate &t, int node, BufKind self,
                             const std::vector<int> &extra_slots, const std::vector<Expr> &args,
                             const std::vector<Expr> &values, const std::vector<const Call *> &calls) {
    const Node &n = ctx.dag.node(node);
    Linearizer lin(t.slot_names);
    const int ns = t.nslots();
    auto self_form = [&](const std::vector<Expr> &self_args) {
        std::vector<double> f = lin.forms(self_args);
        for (int s : extra_slots) {
            std::vector<double> row(1 + ns, 0.0);
            row[1 + s] = 1.0;
            f.insert(f.end(), row.begin(), row.end());
        }
        return f;
    };
    t.write_bytes = values.empty() ? 4 : values[0].type().bytes();
    add_access(t, self, node, t.write_bytes, false, true, self_form(args));
    for (const Call *c : calls) {
        if (c->call_type == Call::Halide) {
            if (c->name == n.name) {
                add_access(t, self, node, c->type.bytes(), true, false, self_form(c->args));
                continue;
            }
            auto idx = ctx.dag.index_of(c->name);
            if (!idx) continue;
            add_access(t, BufKind::Func, *idx, c->type.bytes(), true, false, lin.forms(c->args));
        } else {
            int im = ctx.images.index_of(c);
            add_access(t, BufKind::Input, im, c->type.bytes(), true, false, lin.forms(c->args));
        }
    }
}

}  // namespace

std::unique_ptr<DefinitionTemplate> build_definition(const BuildContext &ctx, int node, int stage, BufKind self,
                                                     const std::vector<std::string> &extra) {
    const Node &n = ctx.dag.node(node);
    auto t = std::make_unique<DefinitionTemplate>();
    if (stage < (int)n.stages.size()) add_slots(*t, n.stages[stage].loops);
    std::vector<int> extra_slots;
    for (const auto &e : extra) {
        extra_slots.push_back(t->nslots());
        t->slot_names.push_back(e);
        t->slot_kinds.push_back(LoopKind::Space);
    }
    for (const auto &a : n.pure_args) t->pure_slot.push_back(t->slot_of(a));
    for (int s : extra_slots) t->pure_slot.push_back(s);
    if (n.func.has_extern_definition()) return t;
    if (stage > (int)n.func.updates().size()) return t;
    const Definition &def = stage == 0 ? n.func.definition() : n.func.updates()[stage - 1];
    if (!def.defined()) return t;

    const std::vector<bool> inl = ctx.dag.inlined_into(node, ctx.inlined);
    std::vector<Expr> args, values;
    for (const Expr &e : def.args()) args.push_back(inline_all(ctx.dag, e, inl));
    for (const Expr &e : def.values()) values.push_back(inline_all(ctx.dag, e, inl));
    Expr pred = inline_all(ctx.dag, def.predicate(), inl);

    DefinitionOps ops = count_operations(values, args, pred);
    t->arith = ops.counts;
    finish_ops(*t);
    add_definition_accesses(ctx, *t, node, self, extra_slots, args, values, ops.calls);
    return t;
}

namespace {

// The arithmetic column of the operation an update folds with, from its
// first value.
int fold_column(const Expr &v) {
    const Type type = v.type();
    int col = type.is_float() ? FAddSub : IAddSub;
    if (v.as<Mul>()) col = type.is_float() ? FMul : IMul;
    else if (v.as<Min>() || v.as<Max>()) col = type.is_float() ? FCmp : ICmp;
    else if (v.as<Select>()) col = SelectOp;
    else if (v.as<Call>()) col = type.is_float() ? FOther : IOther;
    else if (type.is_bool()) col = BoolOp;
    return col;
}

}  // namespace

std::unique_ptr<DefinitionTemplate> build_merge(const PipelineDAG &dag, int node, const std::vector<StageLoop> &base) {
    const Node &n = dag.node(node);
    auto t = std::make_unique<DefinitionTemplate>();
    add_slots(*t, base);
    std::vector<int> intm_slots;
    for (const auto &a : n.pure_args) {
        t->pure_slot.push_back(t->slot_of(a));
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
            t->arith[fold_column(v)] = 1;
        }
    }
    finish_ops(*t);
    t->write_bytes = type.bytes();
    add_access(*t, BufKind::Func, node, type.bytes(), true, true, unit_forms(*t, t->pure_slot));
    add_access(*t, BufKind::Intm, node, type.bytes(), true, false, unit_forms(*t, intm_slots));
    return t;
}

std::unique_ptr<DefinitionTemplate> build_intm_init(const PipelineDAG &dag, int node, const ModelFunc &f) {
    const Node &n = dag.node(node);
    auto t = std::make_unique<DefinitionTemplate>();
    add_slots(*t, f.base_stages[0]);
    for (const auto &a : f.pure_args) t->pure_slot.push_back(t->slot_of(a));
    finish_ops(*t);
    Type type = n.func.output_types().empty() ? Float(32) : n.func.output_types()[0];
    t->write_bytes = type.bytes();
    add_access(*t, BufKind::Intm, node, type.bytes(), false, true, unit_forms(*t, t->pure_slot));
    return t;
}

}  // namespace detail
}  // namespace features
}  // namespace ansor
