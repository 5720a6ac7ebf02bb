#include "state/loop_nest.h"

#include "dag/inline_calls.h"

#include <sstream>

namespace ansor {

using namespace Halide;
using namespace Halide::Internal;

namespace {
const std::string kIntermediateSuffix = "_intm";
}  // namespace

std::string intermediate_name(const std::string &func) { return func + kIntermediateSuffix; }

std::optional<std::string> intermediate_origin(const std::string &name) {
    const std::string &suffix = kIntermediateSuffix;
    if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
        return std::nullopt;
    }
    return name.substr(0, name.size() - suffix.size());
}

int ModelStage::find(const std::string &loop) const {
    for (size_t i = 0; i < loops.size(); i++) {
        if (loops[i].name == loop) return (int)i;
    }
    return -1;
}

LoopNest::LoopNest(const PipelineDAG &dag)
    : dag_(&dag), footprint_memo_(std::make_shared<std::map<std::string, std::vector<int64_t>>>()) {
    // Consumers first, the order steps replay in.
    for (int i = (int)dag.nodes().size() - 1; i >= 0; i--) {
        const Node &n = dag.node(i);
        ModelFunc f;
        f.name = n.name;
        f.dag_index = i;
        f.pure_args = n.pure_args;
        for (const auto &r : n.region) f.extents.push_back(r.extent);
        f.extents.resize(f.pure_args.size(), 1);
        for (const auto &st : n.stages) f.base_stages.push_back(st.loops);
        rebuild_stages(f);
        funcs_.push_back(std::move(f));
    }
}

bool LoopNest::has(const std::string &func) const {
    for (const auto &f : funcs_) {
        if (f.name == func) return true;
    }
    return false;
}

const ModelFunc &LoopNest::func(const std::string &name) const {
    for (const auto &f : funcs_) {
        if (f.name == name) return f;
    }
    throw InvalidState("no Func named '" + name + "' in the loop nest");
}

ModelFunc &LoopNest::func(const std::string &name) {
    return const_cast<ModelFunc &>(static_cast<const LoopNest *>(this)->func(name));
}

const ModelStage &LoopNest::stage(const std::string &func_name, int stage) const {
    const ModelFunc &f = func(func_name);
    if (stage < 0 || stage >= (int)f.stages.size()) {
        throw InvalidState("Func '" + func_name + "' has no stage " + std::to_string(stage));
    }
    return f.stages[stage];
}

ModelStage &LoopNest::stage(const std::string &func_name, int stage) {
    return const_cast<ModelStage &>(static_cast<const LoopNest *>(this)->stage(func_name, stage));
}

const ModelLoop &LoopNest::loop(const std::string &func_name, int stage_index, const std::string &loop) const {
    const ModelStage &s = stage(func_name, stage_index);
    int i = s.find(loop);
    if (i < 0) {
        throw InvalidState("stage " + std::to_string(stage_index) + " of '" + func_name + "' has no loop '" + loop + "'");
    }
    return s.loops[i];
}

const ModelFunc *LoopNest::intermediate_of(const std::string &func) const {
    for (const auto &f : funcs_) {
        if (f.dag_index < 0 && f.created_from == func) return &f;
    }
    return nullptr;
}

ModelFunc &LoopNest::add_created(ModelFunc f) {
    for (size_t i = 0; i < funcs_.size(); i++) {
        if (funcs_[i].name == f.created_from) {
            funcs_.insert(funcs_.begin() + i + 1, std::move(f));
            return funcs_[i + 1];
        }
    }
    throw InvalidState("Func '" + f.created_from + "' not in the loop nest");
}

bool LoopNest::has_attached(const std::string &func, int stage, const std::string &loop) const {
    for (const ModelFunc &f : funcs_) {
        const Location &l = f.location;
        if (l.kind == LocationKind::At && l.func == func && l.stage == stage && l.loop == loop) return true;
    }
    return false;
}

std::vector<bool> LoopNest::inlined_nodes() const {
    std::vector<bool> out(dag_->nodes().size(), false);
    for (const auto &f : funcs_) {
        if (f.dag_index >= 0) out[f.dag_index] = f.location.kind == LocationKind::Inline;
    }
    return out;
}

void LoopNest::rebuild_stages(ModelFunc &f) {
    f.stages.clear();
    for (const auto &base : f.base_stages) {
        ModelStage st;
        for (const StageLoop &b : base) {
            ModelLoop l;
            l.name = b.var;
            l.kind = b.kind;
            l.extent = b.extent;
            l.constant_extent = b.kind == LoopKind::Reduction;
            for (size_t a = 0; a < f.pure_args.size(); a++) {
                if (f.pure_args[a] == b.var && b.kind == LoopKind::Space) l.extent = f.extents[a];
            }
            l.origins = {{b.var, l.extent}};
            st.loops.push_back(l);
        }
        f.stages.push_back(st);
    }
}

void LoopNest::relocate(const std::string &name, const Location &loc) {
    ModelFunc &f = func(name);
    f.location = loc;
    if (loc.kind == LocationKind::At) {
        f.extents = footprint(f, loc);
    } else if (f.dag_index >= 0) {
        const Node &n = dag_->node(f.dag_index);
        f.extents.clear();
        for (const auto &r : n.region) f.extents.push_back(r.extent);
        f.extents.resize(f.pure_args.size(), 1);
    }
    rebuild_stages(f);
}

std::map<std::string, LoopNest::InnerExtent> LoopNest::inner_extents(const Location &loc) const {
    const ModelStage &cs = stage(loc.func, loc.stage);
    int at = cs.find(loc.loop);
    if (at < 0) throw InvalidState("compute_at loop '" + loc.loop + "' not in '" + loc.func + "'");
    std::map<std::string, InnerExtent> inner;
    for (size_t i = at + 1; i < cs.loops.size(); i++) {
        for (const auto &o : cs.loops[i].origins) {
            InnerExtent &e = inner[o.first];
            e.extent *= o.second;
            e.constant = e.constant && cs.loops[i].constant_extent;
        }
    }
    return inner;
}

std::vector<int64_t> LoopNest::footprint(const ModelFunc &producer, const Location &loc) const {
    const ModelFunc &consumer = func(loc.func);
    const std::map<std::string, InnerExtent> inner = inner_extents(loc);
    auto inner_of = [&](const std::string &v) {
        auto it = inner.find(v);
        return it == inner.end() ? (int64_t)1 : it->second.extent;
    };

    // An rfactor intermediate is read pointwise by the Func it came from.
    if (producer.dag_index < 0) {
        if (producer.created_from != consumer.name) {
            throw InvalidState("'" + producer.name + "' can only be computed inside '" + producer.created_from + "'");
        }
        std::vector<int64_t> ext;
        for (const auto &a : producer.pure_args) ext.push_back(inner_of(a));
        return ext;
    }

    const Node &pn = dag_->node(producer.dag_index);
    const ModelFunc &def_owner = consumer.dag_index >= 0 ? consumer : func(consumer.created_from);
    if (def_owner.dag_index < 0) throw InvalidState("cannot model the consumer of '" + producer.name + "'");
    const Node &cn = dag_->node(def_owner.dag_index);
    int def_stage = consumer.dag_index >= 0 ? loc.stage : (int)cn.stages.size() - 1;

    const std::vector<bool> inl = dag_->inlined_into(def_owner.dag_index, inlined_nodes());
    std::ostringstream key;
    key << producer.name << "@" << consumer.name << ":" << loc.stage << ":";
    for (const auto &kv : inner) key << kv.first << "=" << kv.second.extent << ",";
    key << "|";
    for (bool b : inl) key << b;
    auto memo = footprint_memo_->find(key.str());
    if (memo != footprint_memo_->end()) return memo->second;

    const Definition &def = def_stage == 0 ? cn.func.definition() : cn.func.updates()[def_stage - 1];
    Scope<Interval> scope;
    for (const auto &a : cn.pure_args) scope.push(a, Interval(0, (int)inner_of(a) - 1));
    for (const auto &rv : def.schedule().rvars()) scope.push(rv.var, Interval(0, (int)inner_of(rv.var) - 1));

    std::vector<Expr> exprs = def.args();
    for (const Expr &v : def.values()) exprs.push_back(v);
    std::vector<int64_t> ext(producer.pure_args.size(), 0);
    bool exact = true;
    for (Expr e : exprs) {
        // Inlined Funcs disappear into the consumer; look through them.
        for (int pass = 0; pass < (int)inl.size(); pass++) {
            bool changed = false;
            for (size_t k = 0; k < inl.size(); k++) {
                if (!inl[k]) continue;
                Expr before = e;
                e = inline_calls(e, dag_->node((int)k).func);
                changed |= !before.same_as(e);
            }
            if (!changed) break;
        }
        auto boxes = boxes_required(e, scope);
        auto it = boxes.find(producer.name);
        if (it == boxes.end()) continue;
        for (size_t d = 0; d < ext.size() && d < it->second.size(); d++) {
            Expr width = simplify(it->second[d].max - it->second[d].min + 1);
            const int64_t *w = as_const_int(width);
            if (!w) {
                exact = false;
                continue;
            }
            ext[d] = std::max(ext[d], *w);
        }
    }
    for (size_t d = 0; d < ext.size(); d++) {
        int64_t root = d < pn.region.size() ? pn.region[d].extent : 1;
        if (!exact || ext[d] <= 0) ext[d] = root;
        ext[d] = std::min(ext[d], std::max<int64_t>(root, 1));
    }
    (*footprint_memo_)[key.str()] = ext;
    return ext;
}

}  // namespace ansor
