// Producers computed once per step of their consumer's reduction: a Func
// whose consumer reads it at a point chosen by the reduction variables
// alone in some dimension (non-local means' `sums(x, y, c) += w(x, y, wx,
// wy) * ...`: one weight image per offset (wx, wy) of the search window).
// Computed at root it is stored whole (one image per offset); computed at
// the consumer's tile it is still stored for every offset of the tile;
// computed inside the consumer's reduction loop, with the consumer's tile
// of pixels (and its channels) inside that loop, one offset's image lives
// in a tile-sized buffer and serves every channel. That is the expert's and
// Adams2019's non-local means schedule, and the sampler drew it in well
// under 1% of programs when only random placement could reach it.
//
// Two rules:
//   tile_for_reduction_steps (at the consumer): besides "SSRSRS", tiles the
//     reduction "SRS": the tiles of pixels outside, the reduction in the
//     middle, the pixels of a tile inside, with the loops the producers do
//     not vary along (the channels) whole inside the tile;
//   compute_at_reduction_step (at the producer, before always_inline, and
//     beside it for a strictly inlinable producer unless its value is costly
//     and shared across a consumer loop): computes the producer at
//     the innermost loop of the consumer's first block of reduction loops
//     that has space loops inside it (the consumer's, or its cache-write
//     intermediate's). The producer's own producers then join it there by
//     compute_at_consumer_tile's chain.
#include "sketch/consumer_tile.h"
#include "sketch/producer_reads.h"

#include "dag/definition_analysis.h"

#include <functional>
#include <set>

namespace ansor {

namespace {

// Whether reduction variable `rvar` of the stage is a window offset: some
// call adds it to a space variable (nl_means' `clamped(x + wx, y + wy)`, a
// convolution's `in(x + rx)`), unlike a contraction's index (a matrix
// product's k, which only ever picks a row of one operand and a column of
// the other: there a per-step operand is a packing, the cache-read rule's).
bool is_window_offset(const StageInfo &st, const std::string &rvar) {
    for (const CallSite &c : st.calls) {
        for (const Halide::Expr &a : c.args) {
            if (!Halide::Internal::expr_uses_var(a, rvar)) continue;
            for (const StageLoop &l : st.loops) {
                if (l.kind == LoopKind::Space && Halide::Internal::expr_uses_var(a, l.var)) return true;
            }
        }
    }
    return false;
}

// Whether some read of `producer` by `consumer`'s last stage has an argument
// that only window offsets of the reduction move: the producer's point along
// that dimension is one step of the window.
bool read_per_reduction_step(const PipelineDAG &dag, int consumer, const std::string &producer,
                             const std::function<bool(int)> &inlined) {
    const StageInfo &st = dag.node(consumer).stages.back();
    if (!st.has_reduction()) return false;
    for (const auto &args : reads_of(dag, consumer, producer, inlined)) {
        for (const Halide::Expr &a : args) {
            bool by_offsets = false, by_other = false;
            for (const StageLoop &l : st.loops) {
                if (!Halide::Internal::expr_uses_var(a, l.var)) continue;
                if (l.kind == LoopKind::Reduction && is_window_offset(st, l.var)) by_offsets = true;
                else by_other = true;
            }
            if (by_offsets && !by_other) return true;
        }
    }
    return false;
}

// A producer these rules place: not an output, an image the cost model
// follows, and not itself a reduction (those have the data-reuse rules).
// Strictly inlinable ones count if they compute something (not a copy):
// non-local means' weight, exp(-patch), inlined into sums is recomputed for
// each of the 4 channels sums accumulates; computed per step it is computed
// once and read 4 times.
bool placeable(const Node &n) {
    return !n.is_output && n.modelled && !n.has_data_reuse && (!n.is_strict_inlinable || does_arithmetic(n));
}

// Whether some reduction downstream of node i reads it per step, reading
// through the Funcs rule 2 inlines: the unscheduled DAG's check, made
// before replaying a partial sketch (every Func of every sketch is asked).
bool may_be_read_per_step(const PipelineDAG &dag, int i) {
    auto will_inline = [&](int j) { return dag.node(j).is_strict_inlinable; };
    for (int c = i + 1; c < (int)dag.nodes().size(); c++) {
        if (read_per_reduction_step(dag, c, dag.node(i).name, will_inline)) return true;
    }
    return false;
}

// The space loops of `consumer`'s last stage that move the points its
// per-step producers are read at (x and y for non-local means' weights; not
// the channel, which all four sums share). Empty when it has no per-step
// producer. Producers are placed after their consumers, so the ones rule 2
// will inline are read through (and may themselves be the per-step
// producer: compute_at_reduction_step runs before rule 2).
std::set<std::string> space_loops_of_per_step_reads(const PipelineDAG &dag, int consumer) {
    auto will_inline = [&](int j) { return dag.node(j).is_strict_inlinable; };
    const StageInfo &st = dag.node(consumer).stages.back();
    std::set<std::string> used;
    for (int p = 0; p < consumer; p++) {
        const Node &pn = dag.node(p);
        if (!placeable(pn) || !read_per_reduction_step(dag, consumer, pn.name, will_inline)) continue;
        for (const auto &args : reads_of(dag, consumer, pn.name, will_inline)) {
            for (const Halide::Expr &a : args) {
                for (const StageLoop &l : st.loops) {
                    if (l.kind == LoopKind::Space && Halide::Internal::expr_uses_var(a, l.var)) used.insert(l.var);
                }
            }
        }
    }
    return used;
}

// "SRS" for the per-step producers: the space loops their reads move are
// split into tiles (outside) and the tile's points (inside), the reduction
// loops go between, and the space loops they do not move stay whole inside
// the tile, so that one step's producers serve all of them.
class TileForReductionSteps : public SketchRule {
public:
    std::string name() const override { return "tile_for_reduction_steps"; }
    RuleResult condition(const SketchContext &ctx, const State &, int i) const override {
        const Node &n = ctx.dag.node(i);
        if (!n.has_data_reuse || !is_tileable(ctx.dag, i, (int)n.stages.size() - 1)) return RuleResult::Pass;
        return space_loops_of_per_step_reads(ctx.dag, i).empty() ? RuleResult::Pass : RuleResult::Apply;
    }
    SketchSuccessors apply(const SketchContext &ctx, const State &s, int i) const override {
        const Node &n = ctx.dag.node(i);
        const int stage = (int)n.stages.size() - 1;
        const std::set<std::string> tiled = space_loops_of_per_step_reads(ctx.dag, i);
        State next = s;
        add_compute_root(next, i);
        std::vector<std::string> tiles, steps, points;
        for (const StageLoop &l : n.stages[stage].loops) {
            if (l.kind == LoopKind::Reduction) {
                steps.push_back(l.var);
            } else if (tiled.count(l.var) && l.extent > 1) {
                auto split = std::make_shared<SplitStep>(n.name, stage, l.var, std::vector<int64_t>{0});
                next.add(split);
                tiles.push_back(split->piece_names()[0]);
                points.push_back(split->piece_names()[1]);
            } else {
                points.push_back(l.var);
            }
        }
        std::vector<std::string> order = tiles;
        order.insert(order.end(), steps.begin(), steps.end());
        order.insert(order.end(), points.begin(), points.end());
        next.add(std::make_shared<ReorderStep>(n.name, stage, order));
        return {{next, i - 1}};
    }
};

// The innermost loop of the first block of reduction loops of `func`'s last
// stage that has a space loop inside it.
std::optional<Location> reduction_step_loop(const LoopNest &m, const std::string &func) {
    const int stage = (int)m.func(func).stages.size() - 1;
    const std::vector<ModelLoop> &loops = m.stage(func, stage).loops;
    for (size_t k = 0; k + 1 < loops.size(); k++) {
        if (loops[k].kind == LoopKind::Reduction && loops[k + 1].kind == LoopKind::Space) {
            return Location{LocationKind::At, func, stage, loops[k].name};
        }
    }
    return std::nullopt;
}

std::optional<State> reduction_step_sketch(const SketchContext &ctx, const State &s, int i) {
    const Node &n = ctx.dag.node(i);
    if (!placeable(n) || !may_be_read_per_step(ctx.dag, i)) return std::nullopt;
    const std::shared_ptr<const LoopNest> m_nest = s.replayed();
    const LoopNest &m = *m_nest;
    const std::vector<bool> inlined = m.inlined_nodes();
    const std::vector<int> consumers = ctx.dag.effective_consumers(i, inlined);
    if (consumers.size() != 1) return std::nullopt;
    const int c = consumers[0];
    auto is_inlined = [&](int j) { return inlined[j]; };
    if (!read_per_reduction_step(ctx.dag, c, n.name, is_inlined)) return std::nullopt;
    // After a cache write the reduction runs in the intermediate.
    const ModelFunc *intermediate = m.intermediate_of(ctx.dag.node(c).name);
    const std::string reducer = intermediate ? intermediate->name : ctx.dag.node(c).name;
    const std::optional<Location> at = reduction_step_loop(m, reducer);
    if (!at) return std::nullopt;
    State next = s;
    next.add(std::make_shared<ComputeLocationStep>(n.name, *at));
    try {
        next.replayed();
    } catch (const InvalidState &) {
        return std::nullopt;
    }
    return next;
}

// Whether the one consumer of node i reads it at the same point across one
// of its last stage's space loops (the channels of non-local means' sums):
// inlined, node i is recomputed for every iteration of that loop.
bool read_across_a_space_loop(const PipelineDAG &dag, int i) {
    const Node &n = dag.node(i);
    if (n.consumers.size() != 1) return false;
    const int c = n.consumers[0];
    auto will_inline = [&](int j) { return dag.node(j).is_strict_inlinable; };
    const std::vector<std::vector<Halide::Expr>> reads = reads_of(dag, c, n.name, will_inline);
    return !reads.empty() && read_spread(dag.node(c).stages.back(), reads).shared > 1;
}

// Exclusive for a strictly inlinable producer whose value is costly and
// shared across a consumer loop (kCostNeverRecomputed): non-local means'
// weight, an exp, is then never inlined into the four sums.
class ComputeAtReductionStep : public SketchRule {
public:
    std::string name() const override { return "compute_at_reduction_step"; }
    RuleResult condition(const SketchContext &ctx, const State &s, int i) const override {
        if (!reduction_step_sketch(ctx, s, i)) return RuleResult::Pass;
        const Node &n = ctx.dag.node(i);
        const bool never_inline = n.is_strict_inlinable && value_cost(ctx.dag, n) >= kCostNeverRecomputed &&
                                  read_across_a_space_loop(ctx.dag, i);
        return never_inline ? RuleResult::ApplyAndSkipRest : RuleResult::Apply;
    }
    SketchSuccessors apply(const SketchContext &ctx, const State &s, int i) const override {
        return {{*reduction_step_sketch(ctx, s, i), i - 1}};
    }
};

}  // namespace

SketchRulePtr make_reduction_step_tiling_rule() { return std::make_shared<TileForReductionSteps>(); }
SketchRulePtr make_compute_at_reduction_step_rule() { return std::make_shared<ComputeAtReductionStep>(); }

}  // namespace ansor
