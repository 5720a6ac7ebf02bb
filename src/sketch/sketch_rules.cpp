#include "sketch/sketch_rules.h"

#include "sketch/consumer_tile.h"
#include "sketch/producer_reads.h"

#include <mutex>
#include <optional>
#include <set>

namespace ansor {

namespace {

std::vector<SketchRulePtr> &user_rules() {
    static std::vector<SketchRulePtr> rules;
    return rules;
}

int last_stage(const PipelineDAG &dag, int node) { return (int)dag.node(node).stages.size() - 1; }

// The nodes a sketch has inlined so far.
std::vector<bool> inlined_in(const PipelineDAG &dag, const State &s) {
    std::vector<bool> out(dag.nodes().size(), false);
    for (const FuncSteps &g : s.groups()) {
        for (const StepPtr &step : g.steps) {
            const Location *loc = step->placement();
            if (!loc || loc->kind != LocationKind::Inline) continue;
            if (auto idx = dag.index_of(step->func())) out[*idx] = true;
        }
    }
    return out;
}

// Rule 2: a strictly inlinable node is always inlined (unless that would
// multiply the calls of an expression past PipelineDAG::kMaxCallsInlinedBySearch).
class AlwaysInline : public SketchRule {
public:
    std::string name() const override { return "always_inline"; }
    RuleResult condition(const SketchContext &ctx, const State &s, int i) const override {
        if (!ctx.dag.node(i).is_strict_inlinable) return RuleResult::Pass;
        std::vector<bool> inlined = inlined_in(ctx.dag, s);
        inlined[i] = true;
        if (ctx.dag.largest_inlined_call_count(inlined) > PipelineDAG::kMaxCallsInlinedBySearch) return RuleResult::Pass;
        return RuleResult::ApplyAndSkipRest;
    }
    SketchSuccessors apply(const SketchContext &ctx, const State &s, int i) const override {
        State next = s;
        next.add(std::make_shared<ComputeLocationStep>(ctx.dag.node(i).name, Location{LocationKind::Inline, "", 0, ""}));
        return {{next, i - 1}};
    }
};

// Rule 6: rfactor a reduction whose space is too small to parallelise.
class AddRfactor : public SketchRule {
public:
    std::string name() const override { return "add_rfactor"; }
    RuleResult condition(const SketchContext &ctx, const State &, int i) const override {
        return needs_reduction_factoring(ctx.dag, i) ? RuleResult::Apply : RuleResult::Pass;
    }
    SketchSuccessors apply(const SketchContext &ctx, const State &s, int i) const override {
        const Node &n = ctx.dag.node(i);
        int stage = last_stage(ctx.dag, i);
        // Factor the outermost reduction loop (loops are listed outermost first).
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
        std::string outer = split->piece_names()[0];
        auto rf = std::make_shared<RfactorStep>(n.name, stage, std::vector<std::pair<std::string, std::string>>{{outer, outer + "_v"}});
        next.add(rf);
        next.add(std::make_shared<ComputeLocationStep>(rf->created_func(), Location{}));
        return {{next, i - 1}};
    }
};

// Tiles `consumer` "SSS" and computes `producer` (whose last stage gets
// "SRSRS") inside its level-1 tiles: rule 4, and rule 5 after a cache write.
void fuse_into_consumer(State &s, const std::string &consumer, int consumer_stage, const std::string &producer,
                        int producer_stage) {
    auto levels = add_multi_level_tiling(s, consumer, consumer_stage, "SSS");
    Location at{LocationKind::At, consumer, consumer_stage, levels[1].back()};
    s.add(std::make_shared<ComputeLocationStep>(producer, at));
    add_multi_level_tiling(s, producer, producer_stage, "SRSRS");
}

// Rule 5: accumulate in a cache Func computed inside the output's tiles.
class AddCacheWrite : public SketchRule {
public:
    std::string name() const override { return "add_cache_write"; }
    RuleResult condition(const SketchContext &ctx, const State &s, int i) const override {
        const Node &n = ctx.dag.node(i);
        if (!n.has_data_reuse || n.stages.size() != 2 || !is_tileable(ctx.dag, i, 1)) return RuleResult::Pass;
        if (ctx.dag.fusible_consumer(i, s.replayed()->inlined_nodes())) return RuleResult::Pass;
        return RuleResult::Apply;
    }
    SketchSuccessors apply(const SketchContext &ctx, const State &s, int i) const override {
        const Node &n = ctx.dag.node(i);
        State next = s;
        add_compute_root(next, i);
        auto cw = std::make_shared<CacheWriteStep>(n.name);
        next.add(cw);
        fuse_into_consumer(next, n.name, 1, cw->created_func(), 1);
        return {{next, i - 1}};
    }
};

// Rule 4: tile and fuse the elementwise consumer.
class MultiLevelTilingWithFusion : public SketchRule {
public:
    std::string name() const override { return "multi_level_tiling_with_fusion"; }
    RuleResult condition(const SketchContext &ctx, const State &s, int i) const override {
        const Node &n = ctx.dag.node(i);
        if (!n.has_data_reuse || !is_tileable(ctx.dag, i, last_stage(ctx.dag, i))) return RuleResult::Pass;
        auto c = ctx.dag.fusible_consumer(i, s.replayed()->inlined_nodes());
        if (!c || has_loop_structure(s, ctx.dag.node(*c).name)) return RuleResult::Pass;
        return RuleResult::ApplyAndSkipRest;
    }
    SketchSuccessors apply(const SketchContext &ctx, const State &s, int i) const override {
        const Node &n = ctx.dag.node(i);
        int c = *ctx.dag.fusible_consumer(i, s.replayed()->inlined_nodes());
        State next = s;
        fuse_into_consumer(next, ctx.dag.node(c).name, 0, n.name, last_stage(ctx.dag, i));
        return {{next, i - 1}};
    }
};

// ---- Producers computed inside a consumer's tiles --------------------------

}  // namespace

// The outer tile loop of `func`'s last stage as a rule tiled it: the
// innermost of the leading loops that are outer pieces of the stage's splits
// ("SS", "SSS" or the first level of "SSRSRS").
std::optional<Location> outer_tile_loop(const State &s, const LoopNest &m, const std::string &func) {
    const FuncSteps *g = s.group(func);
    if (!g) return std::nullopt;
    const int stage = (int)m.func(func).stages.size() - 1;
    std::set<std::string> outer_pieces;
    for (const StepPtr &step : g->steps) {
        const auto *split = step->as<SplitStep>();
        if (split && split->stage == stage && !split->factors.empty()) outer_pieces.insert(split->piece_names()[0]);
    }
    std::optional<Location> out;
    for (const ModelLoop &l : m.stage(func, stage).loops) {
        if (l.kind != LoopKind::Space || !outer_pieces.count(l.name)) break;
        out = Location{LocationKind::At, func, stage, l.name};
    }
    return out;
}

namespace {

// Whether a rule may tile `node`'s last stage "SS" (untiled so far, modelled,
// some space loop worth splitting).
bool can_tile_two_levels(const PipelineDAG &dag, const State &s, int node) {
    const Node &n = dag.node(node);
    if (!n.modelled || has_loop_structure(s, n.name)) return false;
    const StageInfo &st = n.stages.back();
    if (!st.modelled) return false;
    for (const auto &l : st.loops) {
        if (l.kind == LoopKind::Space && l.extent > 1) return true;
    }
    return false;
}

}  // namespace

// Whether a rule already tiled some consumer "SS" for its producers: a
// stage with a reorder whose splits each make two pieces (the other rules'
// tilings split a loop into three or more pieces; sketches hold no
// annotation steps).
bool has_two_level_tile(const State &s) {
    for (const FuncSteps &g : s.groups()) {
        std::set<int> reordered, multi_piece;
        for (const StepPtr &step : g.steps) {
            if (const auto *r = step->as<ReorderStep>()) reordered.insert(r->stage);
            const auto *split = step->as<SplitStep>();
            if (split && split->factors.size() > 1) multi_piece.insert(split->stage);
        }
        for (int stage : reordered) {
            if (!multi_piece.count(stage)) return true;
        }
    }
    return false;
}

std::optional<ConsumerTile> consumer_tile(const PipelineDAG &dag, const State &s, int i) {
    const std::shared_ptr<const LoopNest> m_nest = s.replayed();
    const LoopNest &m = *m_nest;
    const std::vector<int> consumers = dag.effective_consumers(i, m.inlined_nodes());
    if (consumers.empty()) return std::nullopt;
    std::optional<Location> common;
    bool chained = true;
    for (int c : consumers) {
        const std::string &name = dag.node(c).name;
        const ModelFunc &cf = m.func(name);
        std::optional<Location> at;
        if (cf.location.kind == LocationKind::At) {
            at = cf.location;
            chained = chained && !has_loop_structure(s, name);
        } else if (cf.location.kind == LocationKind::Root) {
            at = outer_tile_loop(s, m, name);
            chained = false;
            if (!at) {
                if (consumers.size() != 1 || !can_tile_two_levels(dag, s, c)) return std::nullopt;
                ConsumerTile t;
                t.tile_consumer = name;
                return t;
            }
        }
        if (!at || (common && !(*common == *at))) return std::nullopt;
        common = at;
    }
    ConsumerTile t;
    t.at = *common;
    t.chained = chained;
    return t;
}

// Computes node i inside its consumers' tile (tiling the consumer "SS" when
// needed); with `structure`, tiles i's last stage that way at its new place.
// Nullopt when Halide would not accept it.
std::optional<State> compute_in_consumer_tile(const SketchContext &ctx, const State &s, int i, const ConsumerTile &t,
                                              const std::string &structure) {
    const Node &n = ctx.dag.node(i);
    State next = s;
    Location at = t.at;
    if (!t.tile_consumer.empty()) {
        const Node &c = ctx.dag.node(*ctx.dag.index_of(t.tile_consumer));
        const int stage = (int)c.stages.size() - 1;
        const bool reduces = c.stages.back().has_reduction();
        auto levels = add_multi_level_tiling(next, c.name, stage, reduces ? "SSR" : "SS");
        at = Location{LocationKind::At, c.name, stage, levels[0].back()};
    }
    next.add(std::make_shared<ComputeLocationStep>(n.name, at));
    if (!structure.empty()) add_multi_level_tiling(next, n.name, last_stage(ctx.dag, i), structure);
    try {
        next.replayed();
    } catch (const InvalidState &) {
        return std::nullopt;
    }
    return next;
}

bool downsampled_by_a_consumer(const PipelineDAG &dag, const std::vector<bool> &inlined, int i) {
    auto is_inlined = [&](int j) { return (bool)inlined[j]; };
    for (int c : dag.effective_consumers(i, inlined)) {
        if (reads_at_coarser_scale(dag, c, dag.node(i).name, is_inlined)) return true;
    }
    return false;
}

namespace {

// Producers at the consumer's tile, Halide's classic fusion of stencils
// (`out.tile(x, y, xo, yo, xi, yi, 64, 32); f.compute_at(out, xo)`, as in
// Halide's blur and local Laplacian schedules and Adams et al. 2019's
// "compute at a tile of the consumer"): a producer Ansor would leave at root
// (no data reuse, not strictly inlinable) is computed at the outer tile loop
// of its consumer, which is tiled "SS" if no rule tiled it; Halide's bounds
// inference recomputes the tiles' overlap. A producer whose consumers are
// all computed at one loop joins them there, so a whole chain of stencils
// lives in the output's tile; such a chain member takes no other sketch
// (two choices per chain member would double the sketches per stage), and
// evolution's compute-location mutation still moves it. The chain stops at
// a producer its consumers read at a coarser scale (a pyramid level read
// by the next, smaller one): each level in the chain would double the
// region a tile computes, and local Laplacian's eight levels in one tile
// recomputed most of its finest levels per tile; such a producer is left
// to the rules after this one (root), where a tile of its own can start.
// A sketch tiles at most one consumer "SS" for this rule: every choice of
// where to start a tile is a sketch, but not every subset of them (87-Func
// local Laplacian).
class ComputeAtConsumerTile : public SketchRule {
public:
    std::string name() const override { return "compute_at_consumer_tile"; }
    RuleResult condition(const SketchContext &ctx, const State &s, int i) const override {
        const Node &n = ctx.dag.node(i);
        if (n.is_output || !n.modelled || n.has_data_reuse) return RuleResult::Pass;
        auto t = consumer_tile(ctx.dag, s, i);
        if (!t || (!t->tile_consumer.empty() && has_two_level_tile(s))) return RuleResult::Pass;
        if (t->chained && downsampled_by_a_consumer(ctx.dag, s.replayed()->inlined_nodes(), i)) return RuleResult::Pass;
        if (!compute_in_consumer_tile(ctx, s, i, *t, "")) return RuleResult::Pass;
        return t->chained ? RuleResult::ApplyAndSkipRest : RuleResult::Apply;
    }
    SketchSuccessors apply(const SketchContext &ctx, const State &s, int i) const override {
        return {{*compute_in_consumer_tile(ctx, s, i, *consumer_tile(ctx.dag, s, i), ""), i - 1}};
    }
};

// Rule 3 under a consumer's tile: a producer with data reuse (a convolution
// or matrix product) whose consumer is not elementwise but is itself tiled
// (its multi-level tiling, or the tile it is fused into) gets "SSRSRS" at
// that consumer's outer tile instead of at root, as expert schedules compute
// a depthwise convolution per tile of the pointwise one (MobileNet) or one
// convolution per tile of the next. Beside rule 3, which keeps the root sketch.
class MultiLevelTilingAtConsumerTile : public SketchRule {
public:
    std::string name() const override { return "multi_level_tiling_at_consumer_tile"; }
    RuleResult condition(const SketchContext &ctx, const State &s, int i) const override {
        const Node &n = ctx.dag.node(i);
        if (n.is_output || !n.has_data_reuse || !is_tileable(ctx.dag, i, last_stage(ctx.dag, i))) return RuleResult::Pass;
        if (ctx.dag.fusible_consumer(i, s.replayed()->inlined_nodes())) return RuleResult::Pass;
        auto t = consumer_tile(ctx.dag, s, i);
        if (!t || !t->tile_consumer.empty() || !compute_in_consumer_tile(ctx, s, i, *t, "SSRSRS")) {
            return RuleResult::Pass;
        }
        return RuleResult::Apply;
    }
    SketchSuccessors apply(const SketchContext &ctx, const State &s, int i) const override {
        return {{*compute_in_consumer_tile(ctx, s, i, *consumer_tile(ctx.dag, s, i), "SSRSRS"), i - 1}};
    }
};

// Rule 3: "SSRSRS" multi-level tiling for data reuse.
class MultiLevelTiling : public SketchRule {
public:
    std::string name() const override { return "multi_level_tiling"; }
    RuleResult condition(const SketchContext &ctx, const State &, int i) const override {
        const Node &n = ctx.dag.node(i);
        return n.has_data_reuse && is_tileable(ctx.dag, i, last_stage(ctx.dag, i)) ? RuleResult::ApplyAndSkipRest
                                                                                  : RuleResult::Pass;
    }
    SketchSuccessors apply(const SketchContext &ctx, const State &s, int i) const override {
        State next = s;
        add_compute_root(next, i);
        add_multi_level_tiling(next, ctx.dag.node(i).name, last_stage(ctx.dag, i), "SSRSRS");
        return {{next, i - 1}};
    }
};

// Rule 1: leave the node at root for annotation to place.
class Skip : public SketchRule {
public:
    std::string name() const override { return "skip"; }
    RuleResult condition(const SketchContext &, const State &, int) const override { return RuleResult::Apply; }
    SketchSuccessors apply(const SketchContext &, const State &s, int i) const override {
        State next = s;
        add_compute_root(next, i);
        return {{next, i - 1}};
    }
};

}  // namespace

bool needs_reduction_factoring(const PipelineDAG &dag, int node) {
    const Node &n = dag.node(node);
    if (!n.modelled || !n.has_more_reduction_parallel || n.stages.size() < 2) return false;
    const StageInfo &st = n.stages.back();
    return st.has_reduction() && st.modelled;
}

SketchRulePtr make_always_inline_rule() { return std::make_shared<AlwaysInline>(); }
SketchRulePtr make_skip_rule() { return std::make_shared<Skip>(); }

std::vector<SketchRulePtr> registered_sketch_rules() { return user_rules(); }

void register_sketch_rule(SketchRulePtr rule) { user_rules().push_back(std::move(rule)); }

void clear_registered_sketch_rules() { user_rules().clear(); }

std::vector<SketchRulePtr> sketch_rules() {
    std::vector<SketchRulePtr> rules = user_rules();
    rules.push_back(make_cache_read_rule());
    rules.push_back(make_serial_reduction_rule());
    rules.push_back(make_lookup_table_rule());
    rules.push_back(make_shared_value_rule());
    rules.push_back(make_compute_at_reduction_step_rule());
    rules.push_back(std::make_shared<AlwaysInline>());
    rules.push_back(std::make_shared<AddRfactor>());
    rules.push_back(std::make_shared<AddCacheWrite>());
    rules.push_back(std::make_shared<MultiLevelTilingWithFusion>());
    rules.push_back(std::make_shared<MultiLevelTilingAtConsumerTile>());
    rules.push_back(make_reduction_step_tiling_rule());
    rules.push_back(std::make_shared<MultiLevelTiling>());
    rules.push_back(make_sliding_window_rule());
    rules.push_back(make_scan_producer_at_outer_loop_rule());
    rules.push_back(std::make_shared<ComputeAtConsumerTile>());
    rules.push_back(make_scan_strip_rule());
    rules.push_back(std::make_shared<Skip>());
    return rules;
}

std::vector<std::vector<std::string>> add_multi_level_tiling(State &s, const std::string &func, int stage,
                                                             const std::string &structure) {
    LoopNest model = s.replay();
    const ModelStage st = model.stage(func, stage);
    int n_space = 0, n_reduce = 0;
    for (char c : structure) (c == 'S' ? n_space : n_reduce)++;
    // pieces[loop] = the loop's names per level of its kind, outermost first.
    std::vector<std::vector<std::string>> pieces;
    for (const auto &l : st.loops) {
        int n = l.kind == LoopKind::Space ? n_space : n_reduce;
        if (n <= 1) {
            pieces.push_back({l.name});
            continue;
        }
        auto split = std::make_shared<SplitStep>(func, stage, l.name, std::vector<int64_t>(n - 1, 0));
        s.add(split);
        pieces.push_back(split->piece_names());
    }
    std::vector<std::vector<std::string>> levels;
    int next_space = 0, next_reduce = 0;
    for (char c : structure) {
        bool space = c == 'S';
        int level = space ? next_space++ : next_reduce++;
        std::vector<std::string> names;
        for (size_t i = 0; i < st.loops.size(); i++) {
            if ((st.loops[i].kind == LoopKind::Space) == space && level < (int)pieces[i].size()) {
                names.push_back(pieces[i][level]);
            }
        }
        levels.push_back(names);
    }
    std::vector<std::string> order;
    for (const auto &l : levels) order.insert(order.end(), l.begin(), l.end());
    s.add(std::make_shared<ReorderStep>(func, stage, order));
    // Levels of space loops only, for callers choosing a compute_at level.
    std::vector<std::vector<std::string>> space_levels;
    for (size_t k = 0; k < structure.size(); k++) {
        if (structure[k] == 'S') space_levels.push_back(levels[k]);
    }
    return space_levels;
}

void add_compute_root(State &s, int node) {
    const Node &n = s.dag().node(node);
    if (n.is_output) return;
    s.add(std::make_shared<ComputeLocationStep>(n.name, Location{}));
}

bool is_tileable(const PipelineDAG &dag, int node, int stage) {
    const Node &n = dag.node(node);
    if (!n.modelled || stage < 0 || stage >= (int)n.stages.size()) return false;
    const StageInfo &st = n.stages[stage];
    int rvars = 0;
    for (const auto &l : st.loops) rvars += l.kind == LoopKind::Reduction;
    return st.modelled && st.has_reduction() && (rvars <= 1 || st.rvars_reorderable);
}

bool has_loop_structure(const State &s, const std::string &func) {
    const FuncSteps *g = s.group(func);
    if (!g) return false;
    for (const auto &st : g->steps) {
        if (st->kind() == "split" || st->kind() == "reorder") return true;
    }
    return false;
}

}  // namespace ansor
