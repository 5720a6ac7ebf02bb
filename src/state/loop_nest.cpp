#include "state/loop_nest.h"

#include "dag/definition_analysis.h"
#include "dag/read_widths.h"

#include <algorithm>
#include <set>

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

int ModelStage::find_including_fused(const std::string &loop) const {
    for (size_t i = 0; i < loops.size(); i++) {
        const auto &from = loops[i].fused_from;
        if (loops[i].name == loop || std::find(from.begin(), from.end(), loop) != from.end()) return (int)i;
    }
    return -1;
}

int ModelStage::find(const std::string &loop) const {
    for (size_t i = 0; i < loops.size(); i++) {
        if (loops[i].name == loop) return (int)i;
    }
    return -1;
}

LoopNest::LoopNest(const PipelineDAG &dag)
    : dag_(&dag) {
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

ModelFunc &LoopNest::mutable_func(const std::string &name) {
    return const_cast<ModelFunc &>(func(name));
}

const ModelStage &LoopNest::stage(const std::string &func_name, int stage) const {
    const ModelFunc &f = func(func_name);
    if (stage < 0 || stage >= (int)f.stages.size()) {
        throw InvalidState("Func '" + func_name + "' has no stage " + std::to_string(stage));
    }
    return f.stages[stage];
}

ModelStage &LoopNest::mutable_stage(const std::string &func_name, int stage_index) {
    return const_cast<ModelStage &>(stage(func_name, stage_index));
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

ModelStage LoopNest::build_stage(const ModelFunc &f, const std::vector<StageLoop> &base) {
    ModelStage st;
    for (const StageLoop &b : base) {
        ModelLoop l;
        l.name = b.var;
        l.kind = b.kind;
        l.extent = b.extent;
        l.constant_extent = b.kind == LoopKind::Reduction && b.compile_time_extent;
        for (size_t a = 0; a < f.pure_args.size(); a++) {
            if (f.pure_args[a] == b.var && b.kind == LoopKind::Space) l.extent = f.extents[a];
        }
        l.origins = {{b.var, l.extent}};
        st.loops.push_back(l);
    }
    return st;
}

void LoopNest::rebuild_stages(ModelFunc &f) {
    f.stages.clear();
    for (const auto &base : f.base_stages) f.stages.push_back(build_stage(f, base));
}

void LoopNest::relocate(const std::string &name, const Location &loc) {
    ModelFunc &f = mutable_func(name);
    f.location = loc;
    f.store_location.reset();
    f.storage_extents.clear();
    f.iterations_per_allocation = 1;
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

// ---- Operations ------------------------------------------------------------

int64_t product_of_factors(const std::vector<int64_t> &v) {
    int64_t p = 1;
    for (int64_t f : v) p *= std::max<int64_t>(1, f);
    return p;
}

void LoopNest::split(const std::string &func_name, int stage_index, const std::string &loop,
                     const std::vector<int64_t> &inner_factors, const std::vector<std::string> &names) {
    ModelStage &s = mutable_stage(func_name, stage_index);
    int at = s.find(loop);
    if (at < 0) throw InvalidState("split: no loop '" + loop + "' in '" + func_name + "'");
    const ModelLoop old = s.loops[at];
    std::vector<ModelLoop> pieces;
    int64_t inner = product_of_factors(inner_factors);
    const bool tail = old.tail || (inner > 0 && old.extent % inner != 0);
    const bool shifted = stage_index == 0 && old.kind == LoopKind::Space && old.extent >= inner;
    const bool guarded_tail = old.guarded_tail || (tail && !shifted);
    // Halide 14 loses the guard of a guarded tail whose piece is split again
    // (seen on updates tiled y -> 208 -> 2 over 205 rows and y -> 32 -> 4 -> 1
    // over 158 rows: writes past the Func's buffer, a heap corruption in the
    // candidate), and on a pure stage whose tile is larger than the whole
    // dim. Such tilings are left out (the annotator draws an update's
    // multi-level tiles without tails); a single guarded split is fine.
    const bool new_guarded_tail = inner > 0 && old.extent % inner != 0 && !shifted;
    if (new_guarded_tail && inner_factors.size() > 1 && (inner > old.extent || stage_index > 0)) {
        throw InvalidState("split: '" + loop + "' of '" + func_name + "' has a guarded tail and more than one level");
    }
    for (size_t i = 0; i < names.size(); i++) {
        ModelLoop p;
        p.name = names[i];
        p.kind = old.kind;
        p.tail = tail;
        p.guarded_tail = guarded_tail;
        bool outer = i == 0;
        p.extent = outer ? (old.extent + inner - 1) / inner : std::max<int64_t>(1, inner_factors[i - 1]);
        p.constant_extent = outer ? old.constant_extent : true;
        if (old.origins.size() == 1) {
            p.origins = {{old.origins[0].first, p.extent}};
        } else if (outer) {
            p.origins = old.origins;
        }
        pieces.push_back(p);
    }
    s.loops.erase(s.loops.begin() + at);
    s.loops.insert(s.loops.begin() + at, pieces.begin(), pieces.end());
}

void LoopNest::fuse(const std::string &func_name, int stage_index, const std::vector<std::string> &loops,
                    const std::string &fused_name) {
    ModelStage &s = mutable_stage(func_name, stage_index);
    if (loops.size() < 2) throw InvalidState("fuse needs two loops");
    int first = s.find(loops[0]);
    if (first < 0) throw InvalidState("fuse: no loop '" + loops[0] + "' in '" + func_name + "'");
    ModelLoop fused;
    fused.name = fused_name;
    fused.kind = s.loops[first].kind;
    fused.extent = 1;
    fused.constant_extent = true;
    for (size_t i = 0; i < loops.size(); i++) {
        if (first + (int)i >= (int)s.loops.size() || s.loops[first + i].name != loops[i]) {
            throw InvalidState("fuse: loops of '" + func_name + "' are not adjacent");
        }
        const ModelLoop &l = s.loops[first + i];
        if (l.kind != fused.kind) throw InvalidState("fuse: cannot fuse a Var with an RVar");
        fused.extent *= l.extent;
        fused.tail = fused.tail || l.tail;
        fused.guarded_tail = fused.guarded_tail || l.guarded_tail;
        fused.constant_extent = fused.constant_extent && l.constant_extent;
        fused.origins.insert(fused.origins.end(), l.origins.begin(), l.origins.end());
        if (l.fused_from.empty()) fused.fused_from.push_back(l.name);
        else fused.fused_from.insert(fused.fused_from.end(), l.fused_from.begin(), l.fused_from.end());
    }
    s.loops.erase(s.loops.begin() + first, s.loops.begin() + first + loops.size());
    s.loops.insert(s.loops.begin() + first, fused);
}

bool LoopNest::rvars_reorderable(const std::string &func_name, int stage_index) const {
    const ModelFunc &f = func(func_name);
    // An intermediate does its origin's last update.
    const ModelFunc &origin = f.dag_index >= 0 ? f : func(f.created_from);
    if (origin.dag_index < 0) return false;
    const Node &n = dag_->node(origin.dag_index);
    int s = f.dag_index >= 0 ? stage_index : (int)n.stages.size() - 1;
    return s < (int)n.stages.size() && n.stages[s].rvars_reorderable;
}

void LoopNest::reorder(const std::string &func_name, int stage_index, const std::vector<std::string> &order) {
    ModelStage &s = mutable_stage(func_name, stage_index);
    if (order.size() != s.loops.size()) {
        throw InvalidState("reorder of '" + func_name + "' names " + std::to_string(order.size()) +
                           " loops, stage has " + std::to_string(s.loops.size()));
    }
    std::vector<ModelLoop> loops;
    for (const auto &n : order) {
        int at = s.find(n);
        if (at < 0) throw InvalidState("reorder: no loop '" + n + "' in '" + func_name + "'");
        loops.push_back(s.loops[at]);
    }
    if (!rvars_reorderable(func_name, stage_index)) {
        // Without an associativity proof Halide refuses to swap two RVars.
        std::vector<std::string> before, after;
        for (const auto &l : s.loops) if (l.kind == LoopKind::Reduction) before.push_back(l.name);
        for (const auto &l : loops) if (l.kind == LoopKind::Reduction) after.push_back(l.name);
        if (before != after) {
            throw InvalidState("reorder would swap RVars of a non-associative update of '" + func_name + "'");
        }
    }
    s.loops = loops;
}

void LoopNest::annotate(const std::string &func_name, int stage_index, const std::string &loop, Annotation a) {
    ModelStage &s = mutable_stage(func_name, stage_index);
    int at = s.find(loop);
    if (at < 0) throw InvalidState("annotate: no loop '" + loop + "' in '" + func_name + "'");
    s.loops[at].annotation = a;
}

void LoopNest::set_auto_unroll(const std::string &func_name, int stage_index, int max_step) {
    mutable_stage(func_name, stage_index).auto_unroll_max_step = max_step;
}

void LoopNest::set_gpu_single_thread(const std::string &func_name, int stage_index) {
    mutable_stage(func_name, stage_index).gpu_single_thread = true;
}

void LoopNest::set_memory_type(const std::string &func_name, Halide::MemoryType type) {
    mutable_func(func_name).memory_type = type;
}

const ModelFunc &LoopNest::add_intermediate(const std::string &func_name, int stage_index,
                                            const std::vector<std::pair<std::string, std::string>> &preserved) {
    ModelFunc &f = mutable_func(func_name);
    if (f.dag_index < 0 || stage_index < 1 || stage_index >= (int)f.stages.size() ||
        stage_index + 1 != (int)f.stages.size()) {
        throw InvalidState("rfactor needs the last update of a pipeline Func; '" + func_name + "' stage " +
                           std::to_string(stage_index));
    }
    const std::string name = intermediate_name(func_name);
    if (has(name)) throw InvalidState("'" + func_name + "' was already factored");
    const ModelStage before = f.stages[stage_index];
    std::set<std::string> kept;
    for (const auto &p : preserved) {
        int at = before.find(p.first);
        if (at < 0 || before.loops[at].kind != LoopKind::Reduction) {
            throw InvalidState("rfactor: '" + p.first + "' is not an RVar of '" + func_name + "'");
        }
        kept.insert(p.first);
    }

    // The intermediate: an init over the origin's pure Vars (preserved RVars'
    // Vars outermost) and the update, preserved RVars now pure Vars.
    ModelFunc intm;
    intm.name = name;
    intm.created_from = func_name;
    intm.pure_args = f.pure_args;
    intm.extents = f.extents;
    std::vector<StageLoop> init, update;
    for (size_t a = 0; a < f.pure_args.size(); a++) init.push_back({f.pure_args[a], LoopKind::Space, f.extents[a]});
    for (const auto &l : before.loops) {
        StageLoop s{l.name, l.kind, l.extent, l.constant_extent};
        for (const auto &p : preserved) {
            if (p.first == l.name) {
                s = {p.second, LoopKind::Space, l.extent};
                init.insert(init.begin(), s);
                intm.pure_args.push_back(p.second);
                intm.extents.push_back(l.extent);
            }
        }
        update.push_back(s);
    }
    intm.base_stages = {init, update};

    // The factored stage now loops over the preserved RVars and its pure Vars.
    std::vector<StageLoop> merged;
    for (const auto &l : before.loops) {
        if (l.kind == LoopKind::Reduction && kept.count(l.name)) merged.push_back({l.name, l.kind, l.extent, l.constant_extent});
    }
    for (const auto &b : f.base_stages[stage_index]) {
        if (b.kind == LoopKind::Space) merged.push_back(b);
    }
    f.base_stages[stage_index] = merged;
    f.stages[stage_index] = build_stage(f, merged);

    // Right after its origin, inlined until a location step places it.
    intm.location.kind = LocationKind::Inline;
    size_t origin_at = 0;
    while (funcs_[origin_at].name != func_name) origin_at++;
    funcs_.insert(funcs_.begin() + origin_at + 1, std::move(intm));
    relocate(name, Location{LocationKind::Inline, "", 0, ""});
    return func(name);
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

namespace {

// Unknown or empty widths fall back to the producer's region at root.
void clamp_to_root(const Node &pn, bool exact, std::vector<int64_t> &ext) {
    for (size_t d = 0; d < ext.size(); d++) {
        int64_t root = d < pn.region.size() ? pn.region[d].extent : 1;
        if (!exact || ext[d] <= 0) ext[d] = root;
        ext[d] = std::min(ext[d], std::max<int64_t>(root, 1));
    }
}

}  // namespace

bool LoopNest::encloses(const Location &loc, const std::string &func_name) const {
    if (loc.kind != LocationKind::At) return false;
    const ModelFunc &f = func(func_name);
    if (f.location.kind != LocationKind::At) return false;
    const Location &l = f.location;
    if (l.func == loc.func && l.stage == loc.stage) {
        const ModelStage &s = stage(loc.func, loc.stage);
        int outer = s.find(loc.loop), inner = s.find(l.loop);
        return outer >= 0 && inner >= outer;
    }
    if (l.func == func_name) return false;
    return encloses(loc, l.func);
}

void LoopNest::store_at(const std::string &name, const Location &store) {
    ModelFunc &f = mutable_func(name);
    if (f.location.kind != LocationKind::At) throw InvalidState("store_at of '" + name + "', which is not computed at a loop");
    // Halide 14 slides a Func's pure definition along the loops between its
    // store and compute levels but runs a reduction update over its whole
    // domain on every iteration: a column sum computed at a row loop and
    // stored outside it added its rows once per iteration (a wrong output).
    if (f.stages.size() > 1) {
        throw InvalidState("store_at of '" + name + "', which has update definitions (Halide would redo them per iteration)");
    }
    for (size_t st = 0; st < f.stages.size(); st++) {
        const auto &loops = f.stages[st].loops;
        const auto &base = f.base_stages[st];
        bool untouched = loops.size() == base.size();
        for (size_t i = 0; untouched && i < loops.size(); i++) untouched = loops[i].name == base[i].var;
        if (!untouched) throw InvalidState("store_at of '" + name + "' after its loops were changed");
    }
    const std::vector<Location> enclosing = enclosing_loops(name);
    auto at = std::find(enclosing.begin(), enclosing.end(), store);
    if (at == enclosing.end() || *at == f.location) {
        throw InvalidState("store_at: '" + store.func + "." + store.loop + "' does not enclose the computation of '" +
                           name + "'");
    }
    // Iterations of the loops inside the store loop down to the compute loop.
    int64_t iterations = 1;
    for (auto it = at + 1; it != enclosing.end(); ++it) {
        iterations *= std::max<int64_t>(1, loop(it->func, it->stage, it->loop).extent);
        if (*it == f.location) break;
    }
    const std::vector<int64_t> window = f.extents, whole = footprint(f, store);
    // Along a dim where the store loop needs more than one iteration's
    // window, the iterations slide over it: each computes an even share.
    std::vector<int64_t> computed = window;
    for (size_t d = 0; d < computed.size() && d < whole.size(); d++) {
        if (whole[d] > window[d]) computed[d] = std::min(window[d], (whole[d] + iterations - 1) / iterations);
        computed[d] = std::max<int64_t>(1, computed[d]);
    }
    f.extents = computed;
    rebuild_stages(f);
    f.store_location = store;
    f.storage_extents = window;
    f.iterations_per_allocation = iterations;
}

std::vector<Location> LoopNest::enclosing_loops(const std::string &func_name) const {
    std::vector<Location> out;
    std::set<std::string> seen{func_name};
    const ModelFunc *f = &func(func_name);
    while (f->location.kind == LocationKind::At && seen.insert(f->location.func).second) {
        const Location &l = f->location;
        const ModelStage &s = stage(l.func, l.stage);
        int at = s.find(l.loop);
        for (int i = 0; i <= at; i++) out.push_back({LocationKind::At, l.func, l.stage, s.loops[i].name});
        f = &func(l.func);
    }
    return out;
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
    const std::vector<bool> inlined = inlined_nodes();
    const std::vector<int> consumers = dag_->effective_consumers(producer.dag_index, inlined);
    const bool read_by_owner = consumers.empty() || std::count(consumers.begin(), consumers.end(), def_owner.dag_index);
    std::vector<int64_t> ext =
        read_by_owner ? direct_footprint(producer, loc, inner) : std::vector<int64_t>(producer.pure_args.size(), 0);
    // Consumers computed inside the location (a chain of producers at one
    // consumer loop): the producer covers what they need over the iterations
    // inside the location.
    bool through_others = false;
    for (int c : consumers) {
        if (c == def_owner.dag_index) continue;
        const std::string &cname = dag_->node(c).name;
        if (!encloses(loc, cname)) continue;
        const std::vector<int64_t> needed = footprint_through(producer, func(cname), footprint(func(cname), loc));
        for (size_t d = 0; d < ext.size() && d < needed.size(); d++) ext[d] = std::max(ext[d], needed[d]);
        through_others = true;
    }
    if (through_others || !read_by_owner) clamp_to_root(pn, true, ext);
    // A dim some update writes or reads away from its own pure var (the
    // serial dim of a scan) is computed whole wherever the Func is: Halide
    // widens the region to the update's domain.
    const std::vector<bool> independent = independent_dims(pn);
    for (size_t d = 0; d < ext.size() && d < independent.size() && d < pn.region.size(); d++) {
        if (!independent[d]) ext[d] = std::max(ext[d], pn.region[d].extent);
    }
    return ext;
}

std::vector<int64_t> LoopNest::direct_footprint(const ModelFunc &producer, const Location &loc,
                                                const std::map<std::string, InnerExtent> &inner) const {
    const ModelFunc &consumer = func(loc.func);
    auto inner_of = [&](const std::string &v) {
        auto it = inner.find(v);
        return it == inner.end() ? (int64_t)1 : it->second.extent;
    };
    const Node &pn = dag_->node(producer.dag_index);
    const ModelFunc &def_owner = consumer.dag_index >= 0 ? consumer : func(consumer.created_from);
    const Node &cn = dag_->node(def_owner.dag_index);
    int def_stage = consumer.dag_index >= 0 ? loc.stage : (int)cn.stages.size() - 1;
    // The factored stage of a Func whose reduction moved into an intermediate
    // no longer loops over the RVars: every iteration of it needs them all.
    const bool factored = consumer.dag_index >= 0 && intermediate_of(consumer.name) &&
                          loc.stage + 1 == (int)consumer.stages.size();

    const std::vector<bool> inl = dag_->inlined_into(def_owner.dag_index, inlined_nodes());
    const Definition &def = def_stage == 0 ? cn.func.definition() : cn.func.updates()[def_stage - 1];
    std::set<std::string> looped;
    if (factored) {
        for (const auto &l : stage(consumer.name, loc.stage).loops) {
            for (const auto &o : l.origins) looped.insert(o.first);
        }
    }
    std::map<std::string, int64_t> extents;
    for (const auto &a : cn.pure_args) extents[a] = inner_of(a);
    for (const auto &rv : def.schedule().rvars()) {
        int64_t extent = inner_of(rv.var);
        if (factored && !looped.count(rv.var)) extent = reduction_extent(cn.stages[def_stage], rv.var);
        extents[rv.var] = extent;
    }
    ReadWidths read =
        dag_->read_widths().widths(*dag_, producer.name, producer.pure_args.size(), cn, def_stage, inl, extents);
    clamp_to_root(pn, read.exact, read.widths);
    return read.widths;
}

std::vector<int64_t> LoopNest::footprint_through(const ModelFunc &producer, const ModelFunc &consumer,
                                                 const std::vector<int64_t> &consumer_extents) const {
    const Node &pn = dag_->node(producer.dag_index);
    const Node &cn = dag_->node(consumer.dag_index);
    const std::vector<bool> inl = dag_->inlined_into(consumer.dag_index, inlined_nodes());
    // Every stage of the consumer over its whole region at the location.
    std::vector<int64_t> ext(producer.pure_args.size(), 0);
    bool exact = true;
    for (size_t s = 0; s < cn.stages.size(); s++) {
        const Definition &def = s == 0 ? cn.func.definition() : cn.func.updates()[s - 1];
        std::map<std::string, int64_t> extents;
        for (size_t a = 0; a < cn.pure_args.size(); a++) {
            extents[cn.pure_args[a]] = a < consumer_extents.size() ? consumer_extents[a] : 1;
        }
        for (const auto &rv : def.schedule().rvars()) extents[rv.var] = reduction_extent(cn.stages[s], rv.var);
        const ReadWidths read =
            dag_->read_widths().widths(*dag_, producer.name, producer.pure_args.size(), cn, (int)s, inl, extents);
        for (size_t d = 0; d < ext.size(); d++) ext[d] = std::max(ext[d], read.widths[d]);
        exact = exact && read.exact;
    }
    clamp_to_root(pn, exact, ext);
    return ext;
}

int64_t LoopNest::reduction_extent(const StageInfo &stage, const std::string &rvar) {
    for (const auto &l : stage.loops) {
        if (l.kind == LoopKind::Reduction && l.var == rvar) return std::max<int64_t>(1, l.extent);
    }
    return 1;
}

bool repeats_a_dim(const ModelStage &stage, const std::vector<std::string> &fused, const ModelLoop &loop) {
    for (const std::string &name : fused) {
        const int at = stage.find(name);
        if (at < 0) continue;
        for (const auto &covered : stage.loops[at].origins)
            for (const auto &dim : loop.origins)
                if (covered.first == dim.first) return true;
    }
    return false;
}

}  // namespace ansor
