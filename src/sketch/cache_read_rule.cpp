// Ansor's "add cache read stage" for operands reused across a tile: the
// operand a multi-level-tiled reduction walks with its innermost (vector)
// loop is copied, per outer tile, into a compact buffer laid out with that
// dim innermost (GEMM's packed B panel, as oneDNN and Eigen pack B).
#include "sketch/consumer_tile.h"

#include <algorithm>

namespace ansor {

namespace {

// The arg of `callee` that the stage's call indexes with `var`, or -1.
int arg_indexed_by(const StageInfo &st, const std::string &callee, const std::string &var) {
    for (const CallSite &c : st.calls) {
        if (c.callee != callee) continue;
        for (size_t d = 0; d < c.args.size(); d++) {
            if (Halide::Internal::expr_uses_var(c.args[d], var)) return (int)d;
        }
    }
    return -1;
}

// Node i inlined (it is strictly inlinable and reads inputs only: an
// input's wrapper Func) and staged for its single consumer at the outer tile loop of
// the root Func that encloses the consumer; nullopt where that does not fit.
std::optional<State> staged(const SketchContext &ctx, const State &s, int i) {
    const Node &n = ctx.dag.node(i);
    if (n.is_output || !n.is_strict_inlinable) return std::nullopt;
    const std::shared_ptr<const LoopNest> m_nest = s.replayed();
    const LoopNest &m = *m_nest;
    std::vector<bool> inlined = m.inlined_nodes();
    inlined[i] = true;
    if (ctx.dag.largest_inlined_call_count(inlined) > PipelineDAG::kMaxCallsInlinedBySearch) return std::nullopt;
    const std::vector<int> consumers = ctx.dag.effective_consumers(i, m.inlined_nodes());
    if (consumers.size() != 1) return std::nullopt;
    const Node &c = ctx.dag.node(consumers[0]);
    const int stage = (int)c.stages.size() - 1;
    if (!c.has_data_reuse || !has_loop_structure(s, c.name) || m.intermediate_of(c.name)) return std::nullopt;
    // The consumer's innermost space loop (vectorised by the annotator) and
    // the operand's dim it walks: that dim goes innermost in the copy.
    const ModelStage &cs = m.stage(c.name, stage);
    std::string inner_var;
    for (const ModelLoop &l : cs.loops) {
        if (l.kind == LoopKind::Space && !l.origins.empty()) inner_var = l.origins[0].first;
    }
    const int dim = inner_var.empty() ? -1 : arg_indexed_by(c.stages[stage], n.name, inner_var);
    if (dim < 0) return std::nullopt;
    std::vector<int> order = {dim};
    for (int d = 0; d < (int)n.pure_args.size(); d++) {
        if (d != dim) order.push_back(d);
    }
    // The outer tile of the Func at root that holds the consumer.
    std::string root = c.name;
    while (m.func(root).location.kind == LocationKind::At) root = m.func(root).location.func;
    const std::optional<Location> at = outer_tile_loop(s, m, root);
    if (!at) return std::nullopt;
    State next = s;
    next.add(std::make_shared<ComputeLocationStep>(n.name, Location{LocationKind::Inline, "", 0, ""}));
    next.add(std::make_shared<CacheReadStep>(n.name, c.name, *at, order));
    try {
        next.replayed();
    } catch (const InvalidState &) {
        return std::nullopt;
    }
    return next;
}

// Beside always_inline's sketch (which it runs before), a sketch with the
// operand staged at the consumer's outer tile.
class CacheReadAtConsumerTile : public SketchRule {
public:
    std::string name() const override { return "cache_read_at_consumer_tile"; }
    RuleResult condition(const SketchContext &ctx, const State &s, int i) const override {
        return staged(ctx, s, i) ? RuleResult::Apply : RuleResult::Pass;
    }
    SketchSuccessors apply(const SketchContext &ctx, const State &s, int i) const override {
        return {{*staged(ctx, s, i), i - 1}};
    }
};

}  // namespace

SketchRulePtr make_cache_read_rule() { return std::make_shared<CacheReadAtConsumerTile>(); }

}  // namespace ansor
