// The GPU steps: gpu_single_thread, store_in and the shared-memory cache
// read. (Block and thread bindings are AnnotateSteps, steps.cpp.)
#include "state/steps.h"

#include "util/errors.h"

#include <algorithm>

namespace ansor {

using nlohmann::json;

// ---- gpu_single_thread -----------------------------------------------------

void GpuSingleThreadStep::replay(LoopNest &m) const {
    const ModelStage &s = m.stage(func_, stage);
    for (const ModelLoop &l : s.loops) {
        if (l.annotation == Annotation::GpuBlock || l.annotation == Annotation::GpuThread ||
            l.annotation == Annotation::Parallel || l.annotation == Annotation::Vectorize) {
            throw InvalidState("gpu_single_thread of '" + func_ + "' stage " + std::to_string(stage) +
                               ", whose loop '" + l.name + "' is already bound");
        }
    }
    m.set_gpu_single_thread(func_, stage);
}

std::vector<Directive> GpuSingleThreadStep::lower(const LoopNest &) const {
    Directive d;
    d.kind = Directive::Kind::GpuSingleThread;
    d.func = func_;
    d.stage = stage;
    return {d};
}

StepPtr GpuSingleThreadStep::renamed(Renamer &r) const { return std::make_shared<GpuSingleThreadStep>(r.func(func_), stage); }

void GpuSingleThreadStep::fields_to_json(json &j) const { j["stage"] = stage; }

// ---- store_in ----------------------------------------------------------------

std::string memory_type_name(Halide::MemoryType t) {
    using M = Halide::MemoryType;
    switch (t) {
    case M::Heap: return "heap";
    case M::Stack: return "stack";
    case M::Register: return "register";
    case M::GPUShared: return "gpu_shared";
    default: return "auto";
    }
}

Halide::MemoryType memory_type_from_name(const std::string &name) {
    using M = Halide::MemoryType;
    for (M t : {M::Auto, M::Heap, M::Stack, M::Register, M::GPUShared}) {
        if (memory_type_name(t) == name) return t;
    }
    throw UserError("unknown memory type '" + name + "' (auto, heap, stack, register, gpu_shared)");
}

void StoreInStep::replay(LoopNest &m) const {
    const ModelFunc &f = m.func(func_);
    if (f.location.kind == LocationKind::Inline) throw InvalidState("store_in of inlined '" + func_ + "'");
    using M = Halide::MemoryType;
    if ((memory == M::Register || memory == M::Stack || memory == M::GPUShared) && f.location.kind != LocationKind::At) {
        throw InvalidState("store_in(" + memory_type_name(memory) + ") of '" + func_ + "', which is not computed at a loop");
    }
    m.set_memory_type(func_, memory);
}

std::vector<Directive> StoreInStep::lower(const LoopNest &) const {
    Directive d;
    d.kind = Directive::Kind::StoreIn;
    d.func = func_;
    d.memory = memory;
    return {d};
}

StepPtr StoreInStep::renamed(Renamer &r) const { return std::make_shared<StoreInStep>(r.func(func_), memory); }

std::string StoreInStep::structure_key() const { return kind() + " " + func_ + " " + memory_type_name(memory) + ";"; }

void StoreInStep::fields_to_json(json &j) const { j["memory"] = memory_type_name(memory); }

// ---- gpu_cache_read ------------------------------------------------------------

namespace {

// The pipeline Func whose definitions hold `func`'s calls: an intermediate
// does its origin's reduction.
int definition_node(const LoopNest &m, const std::string &func) {
    const ModelFunc &f = m.func(func);
    return f.dag_index >= 0 ? f.dag_index : m.func(f.created_from).dag_index;
}

// Whether `consumer`'s definitions call `callee` directly; an intermediate
// holds only its origin's last update.
bool calls(const LoopNest &m, const std::string &consumer, const std::string &callee) {
    const ModelFunc &f = m.func(consumer);
    const std::vector<StageInfo> &stages = m.dag().node(definition_node(m, consumer)).stages;
    for (size_t s = f.dag_index >= 0 ? 0 : stages.size() - 1; s < stages.size(); s++) {
        for (const CallSite &c : stages[s].calls) {
            if (c.callee == callee) return true;
        }
    }
    return false;
}

// A Func that `node` reads, directly or through inlined Funcs, that is
// computed inside some loop (the wrapper, computed at a block loop, could not
// see it); empty when it reads only inputs and Funcs at root.
std::string computed_inside_loop(const LoopNest &m, int node) {
    for (const StageInfo &st : m.dag().node(node).stages) {
        for (const CallSite &c : st.calls) {
            if (c.callee_is_input || !m.has(c.callee)) continue;
            const ModelFunc &callee = m.func(c.callee);
            if (callee.location.kind == LocationKind::At) return c.callee;
            if (callee.location.kind == LocationKind::Inline && callee.dag_index >= 0) {
                const std::string deeper = computed_inside_loop(m, callee.dag_index);
                if (!deeper.empty()) return deeper;
            }
        }
    }
    return "";
}

}  // namespace

int64_t GpuCacheReadStep::block_threads(const LoopNest &m) const {
    int64_t threads = 0;
    for (const ModelLoop &l : m.stage(location.func, location.stage).loops) {
        if (l.annotation == Annotation::GpuThread) threads = std::max<int64_t>(threads, 1) * l.extent;
    }
    if (threads > 0) return threads;
    throw InvalidState("gpu_cache_read of '" + func_ + "': '" + location.func + "' binds no gpu_threads loop");
}

void GpuCacheReadStep::replay(LoopNest &m) const {
    const std::string what = "gpu_cache_read of '" + func_ + "' for '" + consumer + "'";
    if (!m.has(func_) || m.func(func_).dag_index < 0) throw InvalidState(what + ": not a pipeline Func");
    if (!m.has(consumer)) throw InvalidState(what + ": no such consumer");
    if (m.func(consumer).location.kind == LocationKind::Inline) throw InvalidState(what + ": the consumer is inlined");
    if (!calls(m, consumer, func_)) throw InvalidState(what + ": the consumer does not call it");
    if (const std::string inner = computed_inside_loop(m, m.func(func_).dag_index); !inner.empty()) {
        throw InvalidState(what + ": it reads '" + inner + "', which is computed inside another Func's loop");
    }
    if (location.kind != LocationKind::At) throw InvalidState(what + ": needs a gpu_blocks loop");
    const std::vector<Location> enclosing = m.enclosing_loops(consumer);
    if (std::find(enclosing.begin(), enclosing.end(), location) == enclosing.end()) {
        throw InvalidState(what + ": '" + location.func + "." + location.loop + "' does not enclose the consumer");
    }
    if (m.loop(location.func, location.stage, location.loop).annotation != Annotation::GpuBlock) {
        throw InvalidState(what + ": '" + location.func + "." + location.loop + "' is not a gpu_blocks loop");
    }
    block_threads(m);
}

std::vector<Directive> GpuCacheReadStep::lower(const LoopNest &m) const {
    Directive d;
    d.kind = Directive::Kind::GpuCacheRead;
    d.func = func_;
    d.wrapped_in = consumer;
    d.at_func = location.func;
    d.at_stage = location.stage;
    d.at_loop = {location.loop, m.loop(location.func, location.stage, location.loop).kind == LoopKind::Reduction};
    for (const std::string &arg : m.func(func_).pure_args) d.loops.push_back({arg, false});
    d.factor = block_threads(m);
    d.memory = Halide::MemoryType::GPUShared;
    return {d};
}

StepPtr GpuCacheReadStep::renamed(Renamer &r) const {
    return std::make_shared<GpuCacheReadStep>(r.func(func_), r.func(consumer), r.location(location));
}

std::string GpuCacheReadStep::structure_key() const { return kind() + " " + func_ + " " + consumer + ";"; }

void GpuCacheReadStep::fields_to_json(json &j) const {
    j["consumer"] = consumer;
    j["at"] = location.func;
    j["stage"] = location.stage;
    j["loop"] = location.loop;
}

}  // namespace ansor
