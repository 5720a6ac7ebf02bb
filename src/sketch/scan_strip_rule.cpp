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
};

// The consumer loops node i could be computed per strip of: loops of its
// single consumer (at root, untiled, one stage) that index i only along
// dims its scans are independent of. Largest first.
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
    if (cf.location.kind != LocationKind::Root || has_loop_structure(s, c.name)) return {};

    // The consumer's reads of i, through the Funcs inlined into it.
    CollectCallArgs reads(n.name);
    const std::vector<bool> inl = ctx.dag.inlined_into(consumers[0], inlined);
    for (const Expr &e : c.func.definition().values()) inline_all(ctx.dag, e, inl).accept(&reads);
    if (reads.args.empty() || reads.data_dependent) return {};

    std::vector<Strip> out;
    for (const ModelLoop &l : m.stage(c.name, 0).loops) {
        if (l.kind != LoopKind::Space || l.extent < 4) continue;
        bool reads_independent = false, reads_scan = false;
        for (const auto &args : reads.args) {
            for (size_t d = 0; d < args.size() && d < independent.size(); d++) {
                if (!expr_uses_var(args[d], l.name)) continue;
                (independent[d] ? reads_independent : reads_scan) = true;
            }
        }
        if (reads_independent && !reads_scan) out.push_back({c.name, l.name, l.extent});
    }
    std::stable_sort(out.begin(), out.end(), [](const Strip &a, const Strip &b) { return a.extent > b.extent; });
    if (out.size() > 2) out.resize(2);
    return out;
}

// The consumer split along the strip loop, the strips outermost (the
// annotator parallelises them), node i computed per strip.
std::optional<State> compute_per_strip(const SketchContext &ctx, const State &s, int i, const Strip &strip) {
    State next = s;
    auto split = std::make_shared<SplitStep>(strip.consumer, 0, strip.loop, std::vector<int64_t>{0});
    next.add(split);
    const std::vector<std::string> pieces = split->piece_names();
    std::vector<std::string> order{pieces[0]};
    const LoopNest m = s.replay();
    for (const ModelLoop &l : m.stage(strip.consumer, 0).loops) {
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

}  // namespace

SketchRulePtr make_scan_strip_rule() { return std::make_shared<ScanAtConsumerStrip>(); }

}  // namespace ansor
