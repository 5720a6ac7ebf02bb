// A value shared across a consumer loop, computed once per consumer tile: a
// strictly inlinable Func that does arithmetic and that its consumer reads
// at the same point for every iteration of one of the consumer's loops (an
// image's per-pixel ratio read by all three colour channels, unsharp mask's
// `ratio(x, y)` in `out(x, y, c)`). Inlined, as always_inline would, it is
// recomputed for every iteration of that loop; computed at the consumer's
// tile, whose tiling puts every loop's inner piece inside the tile, it is
// computed once for all of them, as Adams2019 and the expert schedule do.
// The shared loops must be the shorter ones (channels, not the image).
// The rule adds that sketch beside always_inline's, which still inlines it,
// unless the value costs more than a few operations (kCostNeverRecomputed):
// then the per-tile sketch is the only one.
#include "sketch/consumer_tile.h"
#include "sketch/producer_reads.h"

#include "dag/definition_analysis.h"

namespace ansor {

namespace {

// Whether `consumer` reads `callee` at one point across some of its space
// loops (the shared ones: no argument of its calls uses them) while the
// point moves along the others, and the shared loops are the fewer
// iterations: a per-pixel value shared by the channels. A value that is the
// same across most of the consumer (a colour matrix read per channel only)
// is a small table, not a per-tile value. Only stages without a reduction
// count: a reduction's operands are the data-reuse rules' (multi-level
// tiling, cache reads).
bool reads_across_a_loop(const Node &consumer, const std::string &callee) {
    for (const StageInfo &st : consumer.stages) {
        if (st.has_reduction()) continue;
        std::vector<std::vector<Halide::Expr>> reads;
        for (const CallSite &c : st.calls) {
            if (c.callee == callee) reads.push_back(c.args);
        }
        if (reads.empty()) continue;
        const ReadSpread spread = read_spread(st, reads);
        if (spread.shared > 1 && spread.varying > spread.shared) return true;
    }
    return false;
}

std::optional<State> shared_value_sketch(const SketchContext &ctx, const State &s, int i) {
    const Node &n = ctx.dag.node(i);
    if (n.is_output || !n.is_strict_inlinable || !n.modelled || !does_arithmetic(n)) return std::nullopt;
    // The checks on the unscheduled DAG first: replaying the partial sketch
    // costs more, and every strictly inlinable Func is asked.
    if (n.consumers.size() != 1 || !reads_across_a_loop(ctx.dag.node(n.consumers[0]), n.name)) return std::nullopt;
    if (ctx.dag.effective_consumers(i, s.replayed()->inlined_nodes()) != n.consumers) return std::nullopt;
    const std::optional<ConsumerTile> t = consumer_tile(ctx.dag, s, i);
    if (!t || (!t->tile_consumer.empty() && has_two_level_tile(s))) return std::nullopt;
    return compute_in_consumer_tile(ctx, s, i, *t, "");
}

class SharedValueAtConsumerTile : public SketchRule {
public:
    std::string name() const override { return "shared_value_at_consumer_tile"; }
    RuleResult condition(const SketchContext &ctx, const State &s, int i) const override {
        if (!shared_value_sketch(ctx, s, i)) return RuleResult::Pass;
        const bool costly = value_cost(ctx.dag, ctx.dag.node(i)) >= kCostNeverRecomputed;
        return costly ? RuleResult::ApplyAndSkipRest : RuleResult::Apply;
    }
    SketchSuccessors apply(const SketchContext &ctx, const State &s, int i) const override {
        return {{*shared_value_sketch(ctx, s, i), i - 1}};
    }
};

}  // namespace

SketchRulePtr make_shared_value_rule() { return std::make_shared<SharedValueAtConsumerTile>(); }

}  // namespace ansor
