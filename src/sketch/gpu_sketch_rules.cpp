// The GPU half of the sketch rules (docs/gpu.md). A GPU sketch fixes which
// Funcs are inlined, which reductions are tiled Ansor's GPU way (cache write,
// block / thread / register tile levels, shared-memory cache reads) and which
// are factored across threads; the annotator (gpu_annotation.cpp) binds every
// other stage's pure loops to blocks and threads and draws the tile sizes.
#include "sketch/sketch_rules.h"

#include "util/gpu_target.h"

#include <algorithm>
#include <optional>

namespace ansor {

namespace {

int last_stage(const PipelineDAG &dag, int node) { return (int)dag.node(node).stages.size() - 1; }

// Binds `loops` (outermost first) with `a`, each loop its own block or thread
// dimension, fusing the outermost ones only as far as Halide's three
// dimensions require. A Func computed inside the innermost bound loop gets
// exact bounds from loops bound one by one; inside a fused loop Halide's
// bounds cover the whole fused range, so a tile staged there would read
// its inputs far past their end. Returns the innermost bound loop, empty
// when there is no loop.
std::string fuse_and_bind(State &s, const std::string &func, int stage, const std::vector<std::string> &loops,
                          Annotation a) {
    constexpr size_t kMaxDims = 3;
    if (loops.empty()) return "";
    std::vector<std::string> bound = loops;
    if (bound.size() > kMaxDims) {
        const size_t fused = bound.size() - kMaxDims + 1;
        auto fuse = std::make_shared<FuseStep>(func, stage, std::vector<std::string>(loops.begin(), loops.begin() + fused));
        s.add(fuse);
        bound.erase(bound.begin(), bound.begin() + (std::ptrdiff_t)fused);
        bound.insert(bound.begin(), fuse->fused_name());
    }
    for (const std::string &loop : bound) s.add(std::make_shared<AnnotateStep>(func, stage, loop, a));
    return bound.back();
}

// Whether node p is an elementwise view of pipeline inputs: strictly
// inlinable, reading inputs or other such views (an input's wrapper, a
// boundary condition, an ImageParam's own Func).
bool reads_inputs_elementwise(const PipelineDAG &dag, int p) {
    const Node &n = dag.node(p);
    if (!n.modelled || !n.is_strict_inlinable || n.func.outputs() != 1) return false;
    for (int q : n.producers) {
        if (!reads_inputs_elementwise(dag, q)) return false;
    }
    return true;
}

// Producers node i's update reads (the cache-write intermediate holds the
// update, so only its calls can be wrapped for it) whose values can be
// staged in shared memory.
std::vector<int> shared_memory_operands(const PipelineDAG &dag, int i) {
    std::vector<int> out;
    for (const CallSite &c : dag.node(i).stages.back().calls) {
        auto p = dag.index_of(c.callee);
        if (p && *p != i && std::find(out.begin(), out.end(), *p) == out.end() && reads_inputs_elementwise(dag, *p)) {
            out.push_back(*p);
        }
    }
    return out;
}

// Ansor's GPU multi-level tiling ("SSSRRSRS") as Halide expresses it, for a
// Func with data reuse and one update (GEMM, convolutions):
//   * cache write: out.update(0).rfactor({}) makes out_intm, the accumulator;
//   * out's merge stage: every space loop split block / thread / tile; the
//     block pieces fused and bound to gpu_blocks, the thread pieces fused
//     and bound to gpu_threads, the tile pieces inside (unrolled);
//   * out_intm computed at the thread loop: each thread accumulates its tile
//     (vthread x inner elements) in local memory / registers, its update
//     tiled "RSRS" (two reduction levels around the vthread and inner
//     pieces of the tile);
//   * optionally (a second sketch) every operand that reads inputs only is
//     staged in shared memory at the block loop, loaded by the block's
//     threads together (gpu_cache_read).
// The tile is contiguous per thread, not strided by the block's threads as
// Ansor's virtual threads are: Halide's bounds are intervals, so an
// accumulator computed at the thread loop would span the whole block's
// extent (docs/gpu.md).
class GpuMultiLevelTiling : public SketchRule {
public:
    std::string name() const override { return "gpu_multi_level_tiling"; }
    RuleResult condition(const SketchContext &ctx, const State &, int i) const override {
        const Node &n = ctx.dag.node(i);
        if (!n.has_data_reuse || n.stages.size() != 2 || !is_tileable(ctx.dag, i, 1)) return RuleResult::Pass;
        // The plain sketch (skip) stays beside the tiled ones: its kernels
        // read only what each output element needs, so it is the program that
        // always runs where Halide's bounds of a tile computed in fused block
        // or thread loops over-read an input (docs/gpu.md).
        return RuleResult::Apply;
    }
    SketchSuccessors apply(const SketchContext &ctx, const State &s, int i) const override {
        const Node &n = ctx.dag.node(i);
        State next = s;
        add_compute_root(next, i);
        auto cw = std::make_shared<CacheWriteStep>(n.name);
        next.add(cw);
        const std::string intm = cw->created_func();
        auto levels = add_multi_level_tiling(next, n.name, 1, "SSS");
        const std::string blocks = fuse_and_bind(next, n.name, 1, levels[0], Annotation::GpuBlock);
        const std::string threads = fuse_and_bind(next, n.name, 1, levels[1], Annotation::GpuThread);
        next.add(std::make_shared<ComputeLocationStep>(intm, Location{LocationKind::At, n.name, 1, threads}));
        add_multi_level_tiling(next, intm, 1, "RSRS");
        SketchSuccessors out = {{next, i - 1}};
        const std::vector<int> operands = shared_memory_operands(ctx.dag, i);
        if (!operands.empty()) {
            State shared = next;
            for (int p : operands) {
                shared.add(std::make_shared<GpuCacheReadStep>(ctx.dag.node(p).name, intm,
                                                              Location{LocationKind::At, n.name, 1, blocks}));
            }
            out.push_back({shared, i - 1});
        }
        return out;
    }
};

// Cross-thread reduction, for a reduction with more reduction than space
// parallelism (a norm, a sum to a scalar): the outermost reduction loop is
// split and its inner piece factored out (rfactor) into an intermediate
// whose new pure Var the annotator binds to threads, so partial sums are
// computed by many threads; the Func's own update then adds the partial sums.
// Beside the plain sketch (skip), as Ansor keeps both.
class GpuCrossThreadReduction : public SketchRule {
public:
    std::string name() const override { return "gpu_cross_thread_reduction"; }
    RuleResult condition(const SketchContext &ctx, const State &, int i) const override {
        return needs_reduction_factoring(ctx.dag, i) ? RuleResult::Apply : RuleResult::Pass;
    }
    SketchSuccessors apply(const SketchContext &ctx, const State &s, int i) const override {
        const Node &n = ctx.dag.node(i);
        const int stage = last_stage(ctx.dag, i);
        std::string r;
        for (const auto &l : n.stages[stage].loops) {
            if (l.kind == LoopKind::Reduction) {
                r = l.var;
                break;
            }
        }
        State next = s;
        add_compute_root(next, i);
        auto split = std::make_shared<SplitStep>(n.name, stage, r, std::vector<int64_t>{0});
        next.add(split);
        const std::string inner = split->piece_names()[1];
        auto rf = std::make_shared<RfactorStep>(n.name, stage,
                                                std::vector<std::pair<std::string, std::string>>{{inner, inner + "_v"}});
        next.add(rf);
        next.add(std::make_shared<ComputeLocationStep>(rf->created_func(), Location{}));
        return {{next, i - 1}};
    }
};

// Fusion of stencil producers: a producer without data reuse that is not
// inlined (a stage of a stencil chain) is computed at its consumer's block
// loop and stored in GPU shared memory, where the block's threads compute
// the tile plus its halo together (the annotator binds the producer's fused
// loops to the block's threads); the consumer, at root and untiled, is tiled
// "SS" with the outer pieces fused to gpu_blocks and the inner ones to
// gpu_threads. A producer whose consumers are all computed at one block loop
// joins them there (the rest of the chain). Beside skip's sketch for the
// first producer; a chain member takes no other sketch.
class GpuFuseIntoConsumerBlock : public SketchRule {
public:
    std::string name() const override { return "gpu_fuse_into_consumer_block"; }
    RuleResult condition(const SketchContext &ctx, const State &s, int i) const override {
        bool chained = false;
        if (!fused(ctx, s, i, &chained)) return RuleResult::Pass;
        return chained ? RuleResult::ApplyAndSkipRest : RuleResult::Apply;
    }
    SketchSuccessors apply(const SketchContext &ctx, const State &s, int i) const override {
        return {{*fused(ctx, s, i, nullptr), i - 1}};
    }

private:
    static std::optional<State> fused(const SketchContext &ctx, const State &s, int i, bool *chained) {
        const Node &n = ctx.dag.node(i);
        if (n.is_output || !n.modelled || n.has_data_reuse || n.stages.size() != 1) return std::nullopt;
        const std::shared_ptr<const LoopNest> m_nest = s.replayed();
        const LoopNest &m = *m_nest;
        const std::vector<int> consumers = ctx.dag.effective_consumers(i, m.inlined_nodes());
        if (consumers.empty()) return std::nullopt;
        State next = s;
        Location at;
        const ModelFunc &first = m.func(ctx.dag.node(consumers[0]).name);
        if (first.location.kind == LocationKind::At) {
            // A chain: every consumer computed at one block loop.
            for (int c : consumers) {
                if (!(m.func(ctx.dag.node(c).name).location == first.location)) return std::nullopt;
            }
            at = first.location;
            if (m.loop(at.func, at.stage, at.loop).annotation != Annotation::GpuBlock) return std::nullopt;
            if (chained) *chained = true;
        } else {
            const Node &c = ctx.dag.node(consumers[0]);
            if (consumers.size() != 1 || first.location.kind != LocationKind::Root || !c.modelled ||
                c.stages.size() != 1 || has_loop_structure(s, c.name)) {
                return std::nullopt;
            }
            auto levels = add_multi_level_tiling(next, c.name, 0, "SS");
            const std::string blocks = fuse_and_bind(next, c.name, 0, levels[0], Annotation::GpuBlock);
            fuse_and_bind(next, c.name, 0, levels[1], Annotation::GpuThread);
            at = Location{LocationKind::At, c.name, 0, blocks};
        }
        next.add(std::make_shared<ComputeLocationStep>(n.name, at));
        next.add(std::make_shared<StoreInStep>(n.name, Halide::MemoryType::GPUShared));
        try {
            next.replayed();
        } catch (const InvalidState &) {
            return std::nullopt;
        }
        return next;
    }
};

}  // namespace

std::vector<SketchRulePtr> gpu_sketch_rules() {
    std::vector<SketchRulePtr> rules = registered_sketch_rules();
    rules.push_back(make_always_inline_rule());
    rules.push_back(std::make_shared<GpuCrossThreadReduction>());
    rules.push_back(std::make_shared<GpuMultiLevelTiling>());
    rules.push_back(std::make_shared<GpuFuseIntoConsumerBlock>());
    rules.push_back(make_skip_rule());  // every other Func at root, a kernel per stage
    return rules;
}

std::vector<SketchRulePtr> sketch_rules_for(const Halide::Target &target) {
    return gpu_target_facts(target) ? gpu_sketch_rules() : sketch_rules();
}

}  // namespace ansor
