// The cache_read step: an operand staged for one consumer through a Halide
// wrapper (f.in(g)) computed at a tile loop, its storage reordered.
#include "state/steps.h"

#include <algorithm>

namespace ansor {

namespace {

// Whether `consumer`'s definitions call `func` (directly: a wrapper
// replaces the calls of that one Func).
bool calls(const PipelineDAG &dag, const std::string &consumer, const std::string &func) {
    auto idx = dag.index_of(consumer);
    if (!idx) return false;
    for (const StageInfo &st : dag.node(*idx).stages) {
        for (const CallSite &c : st.calls) {
            if (c.callee == func) return true;
        }
    }
    return false;
}

}  // namespace

void CacheReadStep::replay(LoopNest &m) const {
    const std::string what = "cache_read of '" + func_ + "' for '" + consumer + "'";
    if (!m.has(func_) || m.func(func_).dag_index < 0) throw InvalidState(what + ": not a pipeline Func");
    if (!m.has(consumer) || m.func(consumer).dag_index < 0) throw InvalidState(what + ": no such consumer");
    const ModelFunc &c = m.func(consumer);
    if (c.location.kind == LocationKind::Inline) throw InvalidState(what + ": the consumer is inlined");
    if (m.intermediate_of(consumer)) throw InvalidState(what + ": the consumer's reduction moved to an intermediate");
    if (!calls(m.dag(), consumer, func_)) throw InvalidState(what + ": the consumer does not call it");
    // The wrapper is computed at `location`, outside the places the model
    // computes other Funcs: it may read pipeline inputs only.
    for (const StageInfo &st : m.dag().node(m.func(func_).dag_index).stages) {
        for (const CallSite &call : st.calls) {
            if (!call.callee_is_input) throw InvalidState(what + ": it reads '" + call.callee + "', not only inputs");
        }
    }
    if (location.kind != LocationKind::At) throw InvalidState(what + ": needs a loop");
    // The wrapper's only user is the consumer: the loop must enclose its
    // computation (or be one of its last stage's loops).
    const std::vector<Location> enclosing = m.enclosing_loops(consumer);
    const bool own = location.func == consumer && location.stage + 1 == (int)c.stages.size();
    if (!own && std::find(enclosing.begin(), enclosing.end(), location) == enclosing.end()) {
        throw InvalidState(what + ": '" + location.func + "." + location.loop + "' does not enclose the consumer");
    }
    const ModelStage &s = m.stage(location.func, location.stage);
    const int at = s.find(location.loop);
    if (at < 0) throw InvalidState(what + ": no loop '" + location.loop + "' in '" + location.func + "'");
    for (int i = 0; i <= at; i++) {
        if (s.loops[i].annotation == Annotation::Vectorize) throw InvalidState(what + ": inside a vectorized loop");
    }
    std::vector<int> order = storage_order;
    std::sort(order.begin(), order.end());
    for (size_t i = 0; i < order.size(); i++) {
        if (order[i] != (int)i || order.size() != m.func(func_).pure_args.size()) {
            throw InvalidState(what + ": storage order must name every pure arg once");
        }
    }
}

std::vector<Directive> CacheReadStep::lower(const LoopNest &m) const {
    Directive d;
    d.kind = Directive::Kind::CacheRead;
    d.func = func_;
    d.wrapped_in = consumer;
    d.at_func = location.func;
    d.at_stage = location.stage;
    d.at_loop = {location.loop, m.loop(location.func, location.stage, location.loop).kind == LoopKind::Reduction};
    for (int dim : storage_order) d.loops.push_back({m.func(func_).pure_args[dim], false});
    return {d};
}

StepPtr CacheReadStep::renamed(Renamer &r) const {
    return std::make_shared<CacheReadStep>(r.func(func_), r.func(consumer), r.location(location), storage_order);
}

// Which operand is staged for which consumer (not where, nor its layout).
std::string CacheReadStep::structure_key() const { return kind() + " " + func_ + " " + consumer + ";"; }

void CacheReadStep::fields_to_json(nlohmann::json &j) const {
    j["consumer"] = consumer;
    j["at"] = location.func;
    j["stage"] = location.stage;
    j["loop"] = location.loop;
    j["storage"] = storage_order;
}

}  // namespace ansor
