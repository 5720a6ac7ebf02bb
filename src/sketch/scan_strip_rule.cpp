// Scans computed per strip of their consumer, as Halide's experts and
// Adams2019 schedule recursive filters (iir_blur's column and row passes):
// a Func whose updates walk one dimension serially (s(x, r) = s(x, r - 1) ...)
// is independent along its other dimensions, so its consumer can be split
// along a loop that reads only those, and the scan computed per strip of
// that loop: each strip's scan runs over the whole serial dimension (Halide's
// bounds inference widens it to the update's domain), vectorised across the
// strip, while the strip is still in cache for the consumer. The model
// cannot represent these Funcs' updates, so no other rule moves them from
// root (docs/app_analysis.md, S6); this one gives them a sketch beside root.
//
// A second sketch puts the consumer's small independent loops (an image's
// channels) outside the strips, as iir_blur's expert does: the scan is then
// computed per strip of one channel, and the Func the scan reads (iir_blur's
// `transposed`) can be computed per channel at that outer loop
// (scan_producer_at_outer_loop below) instead of at root, where a whole
// three-channel intermediate (47 MB for iir_blur) is mapped afresh on each
// run. A scan may be computed per strip of a consumer that is itself
// computed at such an outer loop, as long as that consumer covers the
// scan's serial dimension whole there.
#include "sketch/consumer_tile.h"

#include "dag/definition_analysis.h"

#include <algorithm>

namespace ansor {

namespace {

using Halide::Expr;
using namespace Halide::Internal;

// The argument lists of every call to `callee` in an expression, and
// whether any of them is data-dependent (then the region is not a strip).
class CollectCallArgs : public IRVisitor {
public:
    explicit CollectCallArgs(std::string callee) : callee_(std::move(callee)) {}
    std::vector<std::vector<Expr>> args;
    bool data_dependent = false;

private:
    using IRVisitor::visit;
    void visit(const Call *op) override {
        if (op->name == callee_) {
            args.push_back(op->args);
            for (const Expr &a : op->args) data_dependent = data_dependent || reads_data(a);
        }
        IRVisitor::visit(op);
    }
    std::string callee_;
};

struct Strip {
    std::string consumer;
    std::string loop;  // the consumer's pure var split into strips
    int64_t extent = 0;
    // Small loops of the consumer that also read the scan only along its
    // independent dims, in the consumer's order; the second sketch puts them
    // outside the strips.
    std::vector<std::string> outer;
};

// An independent loop at most this long goes outside the strips (channels).
constexpr int64_t kMaxOuterLoopExtent = 16;

// The consumer loops node i could be computed per strip of: loops of its
// single consumer (untiled, one stage, at root or at a loop where it covers
// i's serial dims whole) that index i only along dims its scans are
// independent of. Largest first, then each again with the small ones outside.
std::vector<Strip> strip_loops(const SketchContext &ctx, const State &s, int i) {
    const Node &n = ctx.dag.node(i);
    if (n.is_output || n.modelled || n.stages.size() < 2 || n.func.has_extern_definition()) return {};
    if (n.region.size() != n.pure_args.size()) return {};
    for (const DimRange &r : n.region) {
        if (r.extent <= 0) return {};
    }
    const std::vector<bool> independent = independent_dims(n);
    if (std::count(independent.begin(), independent.end(), true) == 0) return {};
    if (std::count(independent.begin(), independent.end(), false) == 0) return {};

    const LoopNest m = s.replay();
    const std::vector<bool> inlined = m.inlined_nodes();
    const std::vector<int> consumers = ctx.dag.effective_consumers(i, inlined);
    if (consumers.size() != 1) return {};
    const Node &c = ctx.dag.node(consumers[0]);
    if (!c.modelled || c.stages.size() != 1 || !c.stages[0].modelled) return {};
    const ModelFunc &cf = m.func(c.name);
    if (cf.location.kind == LocationKind::Inline || has_loop_structure(s, c.name)) return {};

    // The consumer's reads of i, through the Funcs inlined into it.
    CollectCallArgs reads(n.name);
    const std::vector<bool> inl = ctx.dag.inlined_into(consumers[0], inlined);
    for (const Expr &e : c.func.definition().values()) inline_all(ctx.dag, e, inl).accept(&reads);
    if (reads.args.empty() || reads.data_dependent) return {};

    const ModelStage &cs = m.stage(c.name, 0);
    std::vector<Strip> out;
    std::vector<std::string> small;
    for (const ModelLoop &l : cs.loops) {
        if (l.kind != LoopKind::Space) continue;
        bool reads_independent = false, reads_scan = false;
        for (const auto &args : reads.args) {
            for (size_t d = 0; d < args.size() && d < independent.size(); d++) {
                if (!expr_uses_var(args[d], l.name)) continue;
                (independent[d] ? reads_independent : reads_scan) = true;
            }
        }
        // Computed at a loop, the consumer must still cover the scan's
        // serial dimension whole, or each piece of it would scan it all.
        if (reads_scan && cf.location.kind == LocationKind::At) {
            const auto arg = std::find(c.pure_args.begin(), c.pure_args.end(), l.name);
            const size_t d = arg - c.pure_args.begin();
            if (d >= c.region.size() || l.extent < c.region[d].extent) return {};
        }
        if (!reads_independent || reads_scan) continue;
        if (l.extent >= 4) out.push_back({c.name, l.name, l.extent, {}});
        if (l.extent >= 2 && l.extent <= kMaxOuterLoopExtent) small.push_back(l.name);
    }
    std::stable_sort(out.begin(), out.end(), [](const Strip &a, const Strip &b) { return a.extent > b.extent; });
    if (out.size() > 2) out.resize(2);
    // The second sketch per strip loop, with the other small loops outside.
    const size_t plain = out.size();
    for (size_t k = 0; k < plain; k++) {
        Strip outer = out[k];
        for (const std::string &name : small) {
            if (name != outer.loop) outer.outer.push_back(name);
        }
        if (!outer.outer.empty()) out.push_back(outer);
    }
    return out;
}

// The consumer split along the strip loop, the strips outermost (the
// annotator parallelises them) or just inside the `outer` loops, node i
// computed per strip.
std::optional<State> compute_per_strip(const SketchContext &ctx, const State &s, int i, const Strip &strip) {
    State next = s;
    auto split = std::make_shared<SplitStep>(strip.consumer, 0, strip.loop, std::vector<int64_t>{0});
    next.add(split);
    const std::vector<std::string> pieces = split->piece_names();
    std::vector<std::string> order = strip.outer;
    order.push_back(pieces[0]);
    const LoopNest m = s.replay();
    for (const ModelLoop &l : m.stage(strip.consumer, 0).loops) {
        if (std::find(strip.outer.begin(), strip.outer.end(), l.name) != strip.outer.end()) continue;
        order.push_back(l.name == strip.loop ? pieces[1] : l.name);
    }
    next.add(std::make_shared<ReorderStep>(strip.consumer, 0, order));
    next.add(std::make_shared<ComputeLocationStep>(ctx.dag.node(i).name,
                                                   Location{LocationKind::At, strip.consumer, 0, pieces[0]}));
    try {
        next.replay();
    } catch (const InvalidState &) {
        return std::nullopt;
    }
    return next;
}

SketchSuccessors strip_sketches(const SketchContext &ctx, const State &s, int i) {
    SketchSuccessors out;
    for (const Strip &strip : strip_loops(ctx, s, i)) {
        if (auto next = compute_per_strip(ctx, s, i, strip)) out.emplace_back(std::move(*next), i - 1);
    }
    return out;
}

// Beside the root sketch (rule 1 still applies after it).
class ScanAtConsumerStrip : public SketchRule {
public:
    std::string name() const override { return "scan_at_consumer_strip"; }
    RuleResult condition(const SketchContext &ctx, const State &s, int i) const override {
        return strip_sketches(ctx, s, i).empty() ? RuleResult::Pass : RuleResult::Apply;
    }
    SketchSuccessors apply(const SketchContext &ctx, const State &s, int i) const override {
        return strip_sketches(ctx, s, i);
    }
};

// Where the Func a strip-computed scan reads goes: at the outermost loop of
// the Func the scan is computed in, when that loop lies outside the strips
// (the second sketch above: per channel). Beside the chain rule, which
// computes it per strip instead, and root.
std::optional<Location> outer_loop_of_scan_consumer(const SketchContext &ctx, const State &s, int i) {
    const Node &n = ctx.dag.node(i);
    if (n.is_output || !n.modelled || n.has_data_reuse) return std::nullopt;
    const LoopNest m = s.replay();
    const std::vector<int> consumers = ctx.dag.effective_consumers(i, m.inlined_nodes());
    if (consumers.size() != 1) return std::nullopt;
    const Node &scan = ctx.dag.node(consumers[0]);
    if (scan.modelled || scan.stages.size() < 2) return std::nullopt;
    const Location &strip = m.func(scan.name).location;
    if (strip.kind != LocationKind::At) return std::nullopt;
    const ModelStage &st = m.stage(strip.func, strip.stage);
    const int k = st.find(strip.loop);
    if (k <= 0 || st.loops[0].kind != LoopKind::Space) return std::nullopt;
    return Location{LocationKind::At, strip.func, strip.stage, st.loops[0].name};
}

std::optional<State> compute_at_outer_loop(const SketchContext &ctx, const State &s, int i) {
    auto at = outer_loop_of_scan_consumer(ctx, s, i);
    if (!at) return std::nullopt;
    State next = s;
    next.add(std::make_shared<ComputeLocationStep>(ctx.dag.node(i).name, *at));
    try {
        next.replay();
    } catch (const InvalidState &) {
        return std::nullopt;
    }
    return next;
}

class ScanProducerAtOuterLoop : public SketchRule {
public:
    std::string name() const override { return "scan_producer_at_outer_loop"; }
    RuleResult condition(const SketchContext &ctx, const State &s, int i) const override {
        return compute_at_outer_loop(ctx, s, i) ? RuleResult::Apply : RuleResult::Pass;
    }
    SketchSuccessors apply(const SketchContext &ctx, const State &s, int i) const override {
        return {{*compute_at_outer_loop(ctx, s, i), i - 1}};
    }
};

}  // namespace

SketchRulePtr make_scan_strip_rule() { return std::make_shared<ScanAtConsumerStrip>(); }
SketchRulePtr make_scan_producer_at_outer_loop_rule() { return std::make_shared<ScanProducerAtOuterLoop>(); }

}  // namespace ansor
