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
#include "dag/root_region_bytes.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

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
    // Those small loops go just inside the strips instead, and the scan is
    // computed at the innermost of them: one channel of a strip at a time,
    // the strips still parallel (a host whose chain reads the scan).
    bool small_loops_inside = false;
};

// An independent loop at most this long goes outside the strips (channels).
constexpr int64_t kMaxOuterLoopExtent = 16;

// The most Funcs between a scan and the Func at root whose strips it is
// computed per.
constexpr size_t kMaxStripChain = 4;

// The strips of `host`'s loops, from what each loop's reads reach of the
// scan: per loop, whether it reads the scan along an independent dim, and
// whether along a serial one. Largest first, then each again with the small
// independent loops outside.
std::vector<Strip> strips_of(const ModelStage &host_stage, const std::string &host,
                             const std::function<std::pair<bool, bool>(const std::string &)> &reads_of_loop) {
    std::vector<Strip> out;
    std::vector<std::string> small;
    for (const ModelLoop &l : host_stage.loops) {
        if (l.kind != LoopKind::Space) continue;
        const auto [reads_independent, reads_scan] = reads_of_loop(l.name);
        if (!reads_independent || reads_scan) continue;
        if (l.extent >= 4) out.push_back({host, l.name, l.extent, {}});
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

// Whether every update of node n writes at its pure variables, in order (a
// reduction's running value): its reads then index by the same variables as
// its pure definition's.
bool updates_at_pure_args(const Node &n) {
    for (const auto &u : n.func.updates()) {
        const std::vector<Expr> &args = u.args();
        if (args.size() != n.pure_args.size()) return false;
        for (size_t a = 0; a < args.size(); a++) {
            const auto *v = args[a].as<Variable>();
            if (!v || v->name != n.pure_args[a]) return false;
        }
    }
    return true;
}

// The dims of `callee` that `caller`'s pure variables `vars` index, over all
// of its definitions (through the Funcs `inlined` marks); nullopt where such
// an index is data-dependent or `caller` does not read `callee`.
std::optional<std::vector<bool>> dims_indexed_by(const PipelineDAG &dag, const std::vector<bool> &inlined, int caller,
                                                 const Node &callee, const std::set<std::string> &vars) {
    const Node &c = dag.node(caller);
    CollectCallArgs reads(callee.name);
    const std::vector<bool> inl = dag.inlined_into(caller, inlined);
    for (const Expr &e : c.func.definition().values()) inline_all(dag, e, inl).accept(&reads);
    for (const auto &u : c.func.updates()) {
        for (const Expr &e : u.values()) inline_all(dag, e, inl).accept(&reads);
    }
    if (reads.args.empty()) return std::nullopt;
    std::vector<bool> dims(callee.pure_args.size(), false);
    for (const auto &args : reads.args) {
        for (size_t d = 0; d < args.size() && d < dims.size(); d++) {
            bool uses = false;
            for (const std::string &v : vars) uses = uses || expr_uses_var(args[d], v);
            if (!uses) continue;
            if (reads_data(args[d])) return std::nullopt;
            dims[d] = true;
        }
    }
    return dims;
}

// Loops of node i's single consumer (untiled, one stage, at root or at a
// loop where it covers i's serial dims whole) that index i only along dims
// its scans are independent of.
std::vector<Strip> consumer_strip_loops(const SketchContext &ctx, const State &s, const LoopNest &m, int i,
                                        int consumer, const std::vector<bool> &independent) {
    const Node &n = ctx.dag.node(i);
    const Node &c = ctx.dag.node(consumer);
    if (!c.modelled || c.stages.size() != 1 || !c.stages[0].modelled) return {};
    const ModelFunc &cf = m.func(c.name);
    if (cf.location.kind == LocationKind::Inline || has_loop_structure(s, c.name)) return {};
    // Not a consumer at root whose own buffer there the allocator maps
    // afresh on every run: the strips would keep it there.
    if (cf.location.kind == LocationKind::Root && !c.is_output && root_region_outgrows_reused_heap_blocks(c)) return {};

    // The consumer's reads of i, through the Funcs inlined into it.
    CollectCallArgs reads(n.name);
    const std::vector<bool> inl = ctx.dag.inlined_into(consumer, m.inlined_nodes());
    for (const Expr &e : c.func.definition().values()) inline_all(ctx.dag, e, inl).accept(&reads);
    if (reads.args.empty() || reads.data_dependent) return {};

    // Per consumer loop: whether it reads the scan along an independent
    // dim, and whether along a serial one.
    auto reads_along = [&](const std::string &loop) {
        bool reads_independent = false, reads_scan = false;
        for (const auto &args : reads.args) {
            for (size_t d = 0; d < args.size() && d < independent.size(); d++) {
                if (!expr_uses_var(args[d], loop)) continue;
                (independent[d] ? reads_independent : reads_scan) = true;
            }
        }
        return std::make_pair(reads_independent, reads_scan);
    };
    // Computed at a loop, the consumer must still cover the scan's serial
    // dimension whole, or each piece of it would scan it all.
    if (cf.location.kind == LocationKind::At) {
        for (const ModelLoop &l : m.stage(c.name, 0).loops) {
            if (l.kind != LoopKind::Space || !reads_along(l.name).second) continue;
            const size_t d = std::find(c.pure_args.begin(), c.pure_args.end(), l.name) - c.pure_args.begin();
            if (d >= c.region.size() || l.extent < c.region[d].extent) return {};
        }
    }
    return strips_of(m.stage(c.name, 0), c.name, reads_along);
}

// Where the scan's consumer is computed inside a chain of single consumers
// that ends in a Func at root (a vertical scan read by a Func computed per
// row of the output's reduction, itself computed in the output's tiles):
// that Func, of one stage, is cut into strips instead, along the outermost
// loop of a dim whose reads reach the scan only through its independent
// dims, the whole chain computed inside each strip.
std::vector<Strip> host_strip_loops(const SketchContext &ctx, const LoopNest &m, int i, int consumer,
                                    const std::vector<bool> &independent) {
    const std::vector<bool> inlined = m.inlined_nodes();
    std::vector<int> chain{consumer};  // the scan's consumer first, the host last
    while (m.func(ctx.dag.node(chain.back()).name).location.kind == LocationKind::At) {
        const std::vector<int> next = ctx.dag.effective_consumers(chain.back(), inlined);
        if (next.size() != 1 || chain.size() > kMaxStripChain) return {};
        chain.push_back(next[0]);
    }
    if (chain.size() < 2) return {};
    const Node &host = ctx.dag.node(chain.back());
    if (m.func(host.name).location.kind != LocationKind::Root) return {};
    if (!host.modelled || host.stages.size() != 1 || !host.stages[0].modelled) return {};
    for (size_t k = 0; k + 1 < chain.size(); k++) {
        const Node &member = ctx.dag.node(chain[k]);
        if (!updates_at_pure_args(member)) return {};
        const std::vector<Location> around = m.enclosing_loops(member.name);
        if (around.empty() || around.back().func != host.name) return {};
    }
    // The host's dims, each by its outermost loop (a tiled host's outer tile
    // loop): the strips split that loop.
    const ModelStage &stage = m.stage(host.name, 0);
    std::map<std::string, std::string> dim_of_outermost;
    std::set<std::string> seen;
    for (const ModelLoop &l : stage.loops) {
        if (l.origins.size() != 1) continue;
        if (seen.insert(l.origins[0].first).second) dim_of_outermost[l.name] = l.origins[0].first;
    }
    bool untraceable = false;
    std::vector<Strip> out = strips_of(stage, host.name, [&](const std::string &loop) {
        const auto dim = dim_of_outermost.find(loop);
        if (dim == dim_of_outermost.end()) return std::make_pair(false, false);
        // Follow the dim's variable down the chain to the scan's dims.
        std::set<std::string> vars{dim->second};
        std::optional<std::vector<bool>> dims;
        for (size_t k = chain.size(); k-- > 0;) {
            const Node &callee = k > 0 ? ctx.dag.node(chain[k - 1]) : ctx.dag.node(i);
            dims = dims_indexed_by(ctx.dag, inlined, chain[k], callee, vars);
            if (!dims) {
                untraceable = true;
                return std::make_pair(false, false);
            }
            vars.clear();
            for (size_t d = 0; d < dims->size(); d++) {
                if ((*dims)[d]) vars.insert(callee.pure_args[d]);
            }
        }
        bool reads_independent = false, reads_scan = false;
        for (size_t d = 0; d < dims->size() && d < independent.size(); d++) {
            if ((*dims)[d]) (independent[d] ? reads_independent : reads_scan) = true;
        }
        return std::make_pair(reads_independent, reads_scan);
    });
    if (untraceable) return {};
    for (Strip &strip : out) strip.small_loops_inside = !strip.outer.empty();
    return out;
}

// The loops node i could be computed per strip of: its consumer's, or
// those of the Func at root its consumer is computed inside.
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

    const std::shared_ptr<const LoopNest> m_nest = s.replayed();
    const LoopNest &m = *m_nest;
    const std::vector<int> consumers = ctx.dag.effective_consumers(i, m.inlined_nodes());
    if (consumers.size() != 1) return {};
    std::vector<Strip> out = consumer_strip_loops(ctx, s, m, i, consumers[0], independent);
    if (out.empty()) out = host_strip_loops(ctx, m, i, consumers[0], independent);
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
    std::string scan_at = pieces[0];
    if (strip.small_loops_inside) {
        order.insert(order.begin(), pieces[0]);
        scan_at = strip.outer.back();
    } else {
        order.push_back(pieces[0]);
    }
    const std::shared_ptr<const LoopNest> m_nest = s.replayed();
    const LoopNest &m = *m_nest;
    for (const ModelLoop &l : m.stage(strip.consumer, 0).loops) {
        if (std::find(strip.outer.begin(), strip.outer.end(), l.name) != strip.outer.end()) continue;
        order.push_back(l.name == strip.loop ? pieces[1] : l.name);
    }
    next.add(std::make_shared<ReorderStep>(strip.consumer, 0, order));
    // Funcs computed at the loop now split (a chain in a tiled host) go to
    // its inner piece, which holds what the loop held within each strip.
    const Location split_loop{LocationKind::At, strip.consumer, 0, strip.loop};
    for (FuncSteps &g : next.groups()) {
        for (StepPtr &step : g.steps) {
            const Location *store = step->storage();
            if (store && *store == split_loop) return std::nullopt;
            const Location *at = step->placement();
            if (at && *at == split_loop) {
                step = std::make_shared<ComputeLocationStep>(g.func, Location{LocationKind::At, strip.consumer, 0, pieces[1]});
            }
        }
    }
    next.add(std::make_shared<ComputeLocationStep>(ctx.dag.node(i).name,
                                                   Location{LocationKind::At, strip.consumer, 0, scan_at}));
    try {
        next.replayed();
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

// Beside the root sketch (rule 1 still applies after it; generate_sketches
// drops it where the scan's buffer at root is mapped afresh on every run).
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
    const std::shared_ptr<const LoopNest> m_nest = s.replayed();
    const LoopNest &m = *m_nest;
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
        next.replayed();
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
