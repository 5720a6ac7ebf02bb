#include "model/gpu_launch_model.h"

#include "state/state.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace ansor {

namespace {

// Per-SM resources of compute capability 8.0 (A100; 9.0 has as many warps
// and more shared memory): CUDA C++ Programming Guide, "Compute
// Capabilities". A kernel hides latency with resident warps times the
// independent operations each has in flight (Volkov, "Better performance at
// lower occupancy", 2010): 32 warps per SM without instruction-level
// parallelism (half the SM), 8 with four independent accumulators each.
constexpr int64_t kWarpsPerSm = 64;
constexpr int64_t kBlocksPerSm = 32;
constexpr int64_t kRegistersPerSm = 65536;
constexpr int64_t kSharedBytesPerSm = 164 * 1024;
constexpr double kWarpInstructionsPerCycle = 4;  // one per warp scheduler
constexpr double kWarpsToHideLatency = 32;
constexpr int64_t kMaxIndependentAccumulators = 4;
// A kernel launch (driver and block scheduling), in cycles: about 3 us.
constexpr double kLaunchCycles = 5000;
// Cycles a loaded value costs beyond the operation that uses it, amortised,
// per 128-byte line a warp's load touches: one line where the warp's 32
// threads read consecutive (or the same) addresses, one per thread where
// they read addresses a row apart. Shared memory costs less, bank
// conflicts aside.
constexpr double kLineLoadCycles = 4;
constexpr int64_t kElementsPerLine = 32;
constexpr double kSharedLoadCycles = 2;
// A thread whose registers do not fit (more than the per-thread limit, or
// the block's threads together more than the SM's file) spills to local
// memory: its loads and stores cost this many times more.
constexpr double kSpillFactor = 4;

int64_t product(const std::vector<int64_t> &v) {
    int64_t p = 1;
    for (int64_t e : v) p *= std::max<int64_t>(1, e);
    return p;
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / std::max<int64_t>(1, b); }

// Registers a thread needs: 24 for addresses and indices, 2 per value of its
// register tile (the accumulator and an operand).
int64_t registers_needed(int64_t register_tile) { return 24 + 2 * register_tile; }

struct KernelWork {
    GpuLaunchEstimate::Kernel k;
    double cost = 0;  // sum over its stages of iterations x cycles per iteration
};

// What one iteration of `f`'s stage reads: the DAG stage it comes from (an
// rfactor intermediate reads what its origin's update read), or null.
const StageInfo *stage_info(const PipelineDAG &dag, const LoopNest &m, const ModelFunc &f, int stage) {
    const ModelFunc &origin = f.dag_index >= 0 ? f : m.func(f.created_from);
    if (origin.dag_index < 0) return nullptr;
    const Node &n = dag.node(origin.dag_index);
    if (n.stages.empty()) return nullptr;
    if (f.dag_index < 0) return &n.stages.back();
    return &n.stages[std::min<size_t>((size_t)std::max(0, stage), n.stages.size() - 1)];
}

// The origin variable a thread loop walks. The inner pieces of a split
// carry no origins of their own: such a piece walks the innermost dim of
// the loop it was split from, whose origins its outer sibling (same name
// but the last "_k") keeps.
std::string walked_variable(const ModelStage &st, const ModelLoop &loop) {
    if (!loop.origins.empty()) return loop.origins.back().first;
    const size_t cut = loop.name.rfind('_');
    if (cut == std::string::npos) return "";
    const std::string split_from = loop.name.substr(0, cut + 1);
    for (const ModelLoop &l : st.loops) {
        if (&l != &loop && l.name.rfind(split_from, 0) == 0 && !l.origins.empty()) return l.origins.back().first;
    }
    return "";
}

// The dims one warp's 32 threads spread over: the thread loops of more
// than one thread from the innermost (threadIdx.x) out, until they hold a
// warp; each with how many of the warp's threads it spans.
std::vector<std::pair<std::string, int64_t>> warp_dims(const ModelStage &st, int warp_size) {
    std::vector<std::pair<std::string, int64_t>> dims;
    int64_t lanes = 1;
    for (auto it = st.loops.rbegin(); it != st.loops.rend() && lanes < warp_size; ++it) {
        if (it->annotation != Annotation::GpuThread || it->extent <= 1) continue;
        const int64_t span = std::min<int64_t>(it->extent, (warp_size + lanes - 1) / lanes);
        lanes *= span;
        const std::string var = walked_variable(st, *it);
        if (!var.empty()) dims.push_back({var, span});
    }
    return dims;
}

// The extent of `var` in `f`'s register tile (1 outside one).
int64_t tile_extent(const ModelFunc &f, bool per_thread, const std::string &var) {
    if (!per_thread) return 1;
    for (size_t d = 0; d < f.pure_args.size() && d < f.extents.size(); d++) {
        if (f.pure_args[d] == var) return std::max<int64_t>(1, f.extents[d]);
    }
    return 1;
}

// Cycles of loads per iteration of a stage computed per thread over a tile
// of `f.extents` (a register tile; a stage at root has none). Each call
// reads the tile's distinct values once, shared by the tile's points that
// differ only in dims it does not index; each such load touches, across the
// warp, one line per thread along a warp dim the call indexes outside its
// innermost argument, and along a dim it indexes in the innermost argument
// as many lines as the threads' elements (span x tile extent) fill.
double load_cycles(const StageInfo &info, const ModelFunc &f, bool per_thread,
                   const std::vector<std::pair<std::string, int64_t>> &warp, bool shared) {
    using Halide::Internal::expr_uses_var;
    const double tile = per_thread ? (double)product(f.extents) : 1.0;
    double cycles = 0;
    for (const CallSite &call : info.calls) {
        double distinct = 1;
        if (per_thread) {
            for (size_t d = 0; d < f.pure_args.size() && d < f.extents.size(); d++) {
                bool used = false;
                for (const Halide::Expr &a : call.args) used = used || expr_uses_var(a, f.pure_args[d]);
                if (used) distinct *= (double)std::max<int64_t>(1, f.extents[d]);
            }
        }
        double lines = 1;
        for (const auto &[var, span] : warp) {
            bool outer = false;
            for (size_t a = 1; a < call.args.size(); a++) outer = outer || expr_uses_var(call.args[a], var);
            if (outer) {
                lines *= (double)span;
            } else if (!call.args.empty() && expr_uses_var(call.args[0], var)) {
                const int64_t elements = span * tile_extent(f, per_thread, var);
                lines *= (double)((elements + kElementsPerLine - 1) / kElementsPerLine);
            }
        }
        const double cost = shared ? kSharedLoadCycles : kLineLoadCycles * lines;
        cycles += cost * distinct / tile;
    }
    return cycles;
}

}  // namespace

GpuLaunchModel::GpuLaunchModel(const PipelineDAG &dag, const GpuTargetFacts &gpu, int sm_count)
    : dag_(dag), gpu_(gpu), sm_count_(std::max(1, sm_count)) {}

GpuLaunchEstimate GpuLaunchModel::estimate(const State &program) const {
    const LoopNest m = program.replay();
    GpuLaunchEstimate out;
    std::map<std::pair<std::string, int>, KernelWork> kernels;
    struct StageCost {
        std::pair<std::string, int> kernel;
        double cost;
        bool in_thread;
        const ModelFunc *func;
        int stage;
    };
    std::vector<StageCost> stages;
    for (const ModelFunc &f : m.funcs()) {
        if (f.location.kind == LocationKind::Inline) continue;
        const std::vector<Location> enclosing = m.enclosing_loops(f.name);
        int64_t outer = 1;
        bool in_thread = false;
        for (const Location &l : enclosing) {
            const ModelLoop &loop = m.loop(l.func, l.stage, l.loop);
            outer *= std::max<int64_t>(1, loop.extent);
            in_thread = in_thread || loop.annotation == Annotation::GpuThread;
        }
        for (size_t s = 0; s < f.stages.size(); s++) {
            const ModelStage &st = f.stages[s];
            int64_t own = 1;
            for (const ModelLoop &l : st.loops) own *= std::max<int64_t>(1, l.extent);
            std::pair<std::string, int> key = enclosing.empty() ? std::make_pair(f.name, (int)s)
                                                                : std::make_pair(enclosing.back().func,
                                                                                 enclosing.back().stage);
            KernelWork &kw = kernels[key];
            kw.k.func = key.first;
            kw.k.stage = key.second;
            if (in_thread) kw.k.register_tile = std::max(kw.k.register_tile, product(f.extents));
            if (enclosing.empty()) {
                // The kernel's own loops: host loops outside the bound ones
                // launch it repeatedly; blocks and threads from the bindings.
                bool bound_seen = st.gpu_single_thread;
                for (const ModelLoop &l : st.loops) {
                    const bool bound = l.annotation == Annotation::GpuBlock || l.annotation == Annotation::GpuThread;
                    bound_seen = bound_seen || bound;
                    if (l.annotation == Annotation::GpuBlock) kw.k.blocks *= std::max<int64_t>(1, l.extent);
                    if (l.annotation == Annotation::GpuThread) kw.k.threads *= std::max<int64_t>(1, l.extent);
                    if (!bound_seen) kw.k.launches *= std::max<int64_t>(1, l.extent);
                }
            }
            stages.push_back({key, (double)outer * (double)own, in_thread, &f, (int)s});
            out.stages.push_back({f.name, (int)s, 0.0});
        }
        if (f.memory_type == Halide::MemoryType::GPUShared && !enclosing.empty()) {
            kernels[{enclosing.back().func, enclosing.back().stage}].k.shared_bytes += product(f.extents) * 4;
        }
    }
    // Cycles per iteration: one operation plus its loads (load_cycles),
    // more where the thread's registers spill.
    for (const StageCost &sc : stages) {
        KernelWork &kw = kernels[sc.kernel];
        const ModelStage &root = m.stage(sc.kernel.first, sc.kernel.second);
        const StageInfo *info = stage_info(dag_, m, *sc.func, sc.stage);
        double loads = info ? load_cycles(*info, *sc.func, sc.in_thread, warp_dims(root, gpu_.warp_size),
                                          kw.k.shared_bytes > 0)
                            : kLineLoadCycles;
        const int64_t registers = registers_needed(kw.k.register_tile);
        if (registers > gpu_.max_registers_per_thread || registers * kw.k.threads > kRegistersPerSm) loads *= kSpillFactor;
        kw.cost += sc.cost * (1 + loads);
    }
    for (auto &kv : kernels) {
        GpuLaunchEstimate::Kernel &k = kv.second.k;
        const int64_t warps = ceil_div(k.threads, gpu_.warp_size);
        const int64_t registers = std::min<int64_t>(gpu_.max_registers_per_thread, registers_needed(k.register_tile));
        int64_t resident = std::min({kBlocksPerSm, kWarpsPerSm / std::max<int64_t>(1, warps),
                                     kRegistersPerSm / std::max<int64_t>(1, registers * gpu_.warp_size * warps)});
        if (k.shared_bytes > 0) resident = std::min(resident, kSharedBytesPerSm / k.shared_bytes);
        resident = std::max<int64_t>(1, resident);
        const int64_t per_sm = std::min(resident, ceil_div(k.blocks, sm_count_));
        k.waves = ceil_div(k.blocks, sm_count_ * resident);
        k.warps_per_sm = per_sm * warps;
        const double ilp = (double)std::min<int64_t>(k.register_tile, kMaxIndependentAccumulators);
        const double efficiency = std::min(1.0, (double)k.warps_per_sm * ilp / kWarpsToHideLatency);
        const double per_thread = kv.second.cost / ((double)k.blocks * (double)k.threads * (double)k.launches);
        const double per_wave = (double)per_sm * (double)warps * per_thread / kWarpInstructionsPerCycle / efficiency;
        k.cycles = (double)k.launches * ((double)k.waves * per_wave + kLaunchCycles);
        out.cycles += k.cycles;
        out.per_kernel.push_back(k);
    }
    out.kernels = (int)out.per_kernel.size();
    for (GpuLaunchEstimate::Stage &st : out.stages) {
        auto k = kernels.find({st.func, st.stage});
        if (k != kernels.end()) st.cycles = k->second.k.cycles;
    }
    return out;
}

std::vector<double> GpuLaunchModel::predict(const std::vector<State> &states) {
    std::vector<double> out;
    for (const ProgramPrediction &p : predict_stages(states)) out.push_back(p.score);
    return out;
}

std::vector<ProgramPrediction> GpuLaunchModel::predict_stages(const std::vector<State> &states) {
    std::vector<ProgramPrediction> out(states.size());
    for (size_t i = 0; i < states.size(); i++) {
        ProgramPrediction &p = out[i];
        try {
            const GpuLaunchEstimate e = estimate(states[i]);
            p.score = -std::log(std::max(1.0, e.cycles));
            for (const GpuLaunchEstimate::Stage &st : e.stages) {
                p.stage_funcs.push_back(st.func);
                p.stage_indices.push_back(st.stage);
                p.stage_scores.push_back(-st.cycles);
            }
        } catch (const InvalidState &) {
            p.score = -std::numeric_limits<double>::infinity();
        }
    }
    return out;
}

}  // namespace ansor
