// Sliding windows (line buffers) for stencil producers: Halide's
// `f.store_at(out, xo).compute_at(out, yi)`. No Ansor rule; Halide's
// experts write it for blurs and camera pipelines, where a producer computed
// at the consumer's tile recomputes the overlap of its rows and one stored
// at root misses the cache.
#include "sketch/consumer_tile.h"

namespace ansor {

namespace {

// Replaces the placement node i was given last (the sketch's compute_at of
// it) with `compute`, then stores it at `store`. Nullopt if Halide would
// not accept it.
std::optional<State> slide(const State &s, const std::string &func, const Location &compute, const Location &store) {
    State next = s;
    auto &steps = next.group(func).steps;
    if (steps.empty() || !steps.back()->placement()) return std::nullopt;
    steps.back() = std::make_shared<ComputeLocationStep>(func, compute);
    next.add(std::make_shared<StoreAtStep>(func, store));
    try {
        next.replayed();
    } catch (const InvalidState &) {
        return std::nullopt;
    }
    return next;
}

struct Sliding {
    State state;
    bool chained;
};

// Node i read by one consumer at root: computed at the loop right inside the
// consumer's outer tile loop (the tile's row loop), stored at the outer tile
// loop. Whether the rows' windows overlap enough for sliding to pay depends
// on the tile sizes, which a sketch leaves to the annotator: the sketch
// stands beside the unslid one and the cost model ranks their programs.
std::optional<Sliding> slide_in_root_consumer(const SketchContext &ctx, const State &s, int i, const ConsumerTile &t) {
    if (!t.tile_consumer.empty() && has_two_level_tile(s)) return std::nullopt;
    const std::optional<State> tiled = compute_in_consumer_tile(ctx, s, i, t, "");
    if (!tiled) return std::nullopt;
    const std::string &name = ctx.dag.node(i).name;
    const std::shared_ptr<const LoopNest> at_tile_nest = tiled->replayed();
    const LoopNest &at_tile = *at_tile_nest;
    const Location outer = at_tile.func(name).location;
    const ModelStage &cs = at_tile.stage(outer.func, outer.stage);
    const int o = cs.find(outer.loop);
    if (o < 0 || o + 1 >= (int)cs.loops.size() || cs.loops[o + 1].kind != LoopKind::Space) return std::nullopt;
    Location inner = outer;
    inner.loop = cs.loops[o + 1].name;
    std::optional<State> next = slide(*tiled, name, inner, outer);
    if (!next) return std::nullopt;
    return Sliding{*next, false};
}

// Node i whose consumers all slide at one loop, stored at one outer loop:
// it slides with them (a line-buffered chain), unless they read it at a
// coarser scale (the chain stops there, as compute_at_consumer_tile's does).
std::optional<Sliding> slide_with_consumers(const SketchContext &ctx, const State &s, int i, const ConsumerTile &t) {
    const std::shared_ptr<const LoopNest> m_nest = s.replayed();
    const LoopNest &m = *m_nest;
    if (downsampled_by_a_consumer(ctx.dag, m.inlined_nodes(), i)) return std::nullopt;
    std::optional<Location> store;
    for (int c : ctx.dag.effective_consumers(i, m.inlined_nodes())) {
        const ModelFunc &cf = m.func(ctx.dag.node(c).name);
        if (!cf.store_location || !(cf.location == t.at)) return std::nullopt;
        if (store && !(*store == *cf.store_location)) return std::nullopt;
        store = cf.store_location;
    }
    if (!store) return std::nullopt;
    State placed = s;
    const std::string &name = ctx.dag.node(i).name;
    placed.add(std::make_shared<ComputeLocationStep>(name, t.at));
    std::optional<State> next = slide(placed, name, t.at, *store);
    if (!next) return std::nullopt;
    return Sliding{*next, true};
}

std::optional<Sliding> sliding_sketch(const SketchContext &ctx, const State &s, int i) {
    const Node &n = ctx.dag.node(i);
    if (n.is_output || !n.modelled || n.has_data_reuse) return std::nullopt;
    const std::optional<ConsumerTile> t = consumer_tile(ctx.dag, s, i);
    if (!t) return std::nullopt;
    if (!t->tile_consumer.empty()) return slide_in_root_consumer(ctx, s, i, *t);
    const std::shared_ptr<const LoopNest> m_nest = s.replayed();
    const LoopNest &m = *m_nest;
    if (m.func(t->at.func).location.kind == LocationKind::Root && m.func(t->at.func).dag_index >= 0) {
        bool consumers_at_root = true;
        for (int c : ctx.dag.effective_consumers(i, m.inlined_nodes())) {
            consumers_at_root = consumers_at_root && m.func(ctx.dag.node(c).name).location.kind == LocationKind::Root;
        }
        if (consumers_at_root) return slide_in_root_consumer(ctx, s, i, *t);
    }
    return slide_with_consumers(ctx, s, i, *t);
}

// A producer without data reuse (a stencil) stored at its consumer's outer
// tile loop and computed at the loop inside it, beside the sketch that
// computes it at the tile (compute_at_consumer_tile); a producer whose
// consumers all slide at one loop slides with them and takes no other
// sketch, like a chain member of compute_at_consumer_tile. The consumer's
// loops between the two stay serial: the annotator parallelises no loop at
// or inside a store loop, and replay refuses a parallel one.
class SlidingWindowAtConsumerTile : public SketchRule {
public:
    std::string name() const override { return "sliding_window_at_consumer_tile"; }
    RuleResult condition(const SketchContext &ctx, const State &s, int i) const override {
        const std::optional<Sliding> next = sliding_sketch(ctx, s, i);
        if (!next) return RuleResult::Pass;
        return next->chained ? RuleResult::ApplyAndSkipRest : RuleResult::Apply;
    }
    SketchSuccessors apply(const SketchContext &ctx, const State &s, int i) const override {
        return {{sliding_sketch(ctx, s, i)->state, i - 1}};
    }
};

}  // namespace

SketchRulePtr make_sliding_window_rule() { return std::make_shared<SlidingWindowAtConsumerTile>(); }

}  // namespace ansor
