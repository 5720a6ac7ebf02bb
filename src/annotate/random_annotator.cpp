#include "annotate/random_annotator.h"

#include "annotate/block_transpose.h"
#include "annotate/unit_split_bounds.h"
#include "annotate/inlined_bodies.h"
#include "annotate/parallel_tasks.h"
#include "annotate/reduction_step_tiles.h"
#include "annotate/root_buffers.h"
#include "annotate/scan_strip_widths.h"
#include "annotate/unread_tile_loops.h"
#include "dag/definition_analysis.h"

#include <algorithm>
#include <limits>
#include <set>

namespace ansor {

namespace {

template<typename T>
const T &pick(const std::vector<T> &v, std::mt19937_64 &rng) {
    return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
}

bool is_modelled(const LoopNest &m, const ModelFunc &f) {
    const ModelFunc &origin = f.dag_index >= 0 ? f : m.func(f.created_from);
    return origin.dag_index >= 0 && m.dag().node(origin.dag_index).modelled;
}

// Whether an expression holds a select whose condition tests one of the
// definition's pure variables `args` (constant_exterior's bounds test).
bool holds_select_on_args(const Halide::Expr &e, const std::vector<std::string> &args) {
    using namespace Halide::Internal;
    class Find : public IRVisitor {
    public:
        explicit Find(const std::vector<std::string> &args) : args_(args) {}
        bool found = false;

    private:
        using IRVisitor::visit;
        const std::vector<std::string> &args_;
        bool in_condition_ = false;
        void visit(const Select *op) override {
            const bool outer = in_condition_;
            in_condition_ = true;
            op->condition.accept(this);
            in_condition_ = outer;
            op->true_value.accept(this);
            op->false_value.accept(this);
        }
        void visit(const Variable *op) override {
            found = found || (in_condition_ && std::find(args_.begin(), args_.end(), op->name) != args_.end());
        }
    } f(args);
    e.accept(&f);
    return f.found;
}

// The factors that would split the innermost of `fused` (leading loops of
// a stage about to be fused and parallelised) into coarser tasks
// (coarse_task_factors); none where that loop anchors a producer (its name
// must stay) or an extent is unknown.
std::vector<int64_t> coarse_factors(const LoopNest &m, const std::string &func, int stage,
                                    const std::vector<std::string> &fused, const RandomAnnotator::Anchors &anchors,
                                    int threads) {
    const ModelStage &st = m.stage(func, stage);
    const std::string &last = fused.back();
    if (anchors.count({func, stage, last}) || m.has_attached(func, stage, last)) return {};
    int64_t outer = 1, inner = 1, extent = 0;
    bool inside = false;
    for (const ModelLoop &l : st.loops) {
        if (l.extent <= 0) return {};
        if (inside) {
            inner *= l.extent;
        } else if (l.name == last) {
            extent = l.extent;
            inside = true;
        } else {
            outer *= l.extent;
        }
    }
    if (!inside) return {};
    return coarse_task_factors(outer, extent, inner, threads);
}

}  // namespace

RandomAnnotator::RandomAnnotator(const PipelineDAG &dag, const Halide::Target &target, AnnotationOptions options)
    : dag_(dag), target_(target), options_(std::move(options)), space_factors_(options_.max_innermost_factor),
      reduction_factors_(options_.max_reduction_factor),
      consumer_tile_factors_(options_.max_consumer_tile), gpu_(gpu_target_facts(target)) {
    has_likely_ = boundary_condition_nodes(dag_);
    read_under_clamp_ = nodes_read_under_clamp(dag_);
    for (const Node &n : dag_.nodes()) {
        bool coordinate_select = false;
        if (!n.func.has_extern_definition()) {
            std::vector<Halide::Internal::Definition> defs{n.func.definition()};
            for (const auto &u : n.func.updates()) defs.push_back(u);
            for (const auto &d : defs) {
                for (const auto &e : d.values()) coordinate_select = coordinate_select || holds_select_on_args(e, n.func.args());
            }
        }
        serial_reduction_operand_.push_back(is_serial_reduction_operand(dag_, (int)serial_reduction_operand_.size()));
        selects_on_coordinates_.push_back(coordinate_select);
        unmodelled_.push_back(!n.modelled);
    }
}

std::optional<int> RandomAnnotator::dag_node_of(const ModelFunc &f) const {
    return f.dag_index >= 0 ? std::optional<int>(f.dag_index) : dag_.index_of(f.created_from);
}


int RandomAnnotator::vector_width(const std::string &func) const {
    auto idx = dag_.index_of(func);
    Halide::Type t = Halide::Float(32);
    if (idx) t = dag_.node(*idx).func.output_types()[0];
    return std::max(1, target_.natural_vector_size(t));
}

std::vector<int64_t> RandomAnnotator::sample_tile(const LoopNest &m, const std::string &func, int stage,
                                                  const std::string &loop, int pieces, bool consumer_tile,
                                                  std::mt19937_64 &rng) {
    const ModelLoop &split_loop = m.loop(func, stage, loop);
    int64_t extent = split_loop.extent;
    FactorizationMemo &factors = consumer_tile                            ? consumer_tile_factors_
                                 : split_loop.kind == LoopKind::Reduction ? reduction_factors_
                                                                          : space_factors_;
    // Is `loop` the stage's innermost space loop, the one vectorised later?
    const ModelStage &st = m.stage(func, stage);
    const ModelLoop *innermost_space = nullptr;
    for (const auto &l : st.loops) {
        if (l.kind == LoopKind::Space) innermost_space = &l;
    }
    // An update's loop tiled in more than one level keeps no tail
    // (LoopNest::split refuses a guarded one: Halide 14 corrupts the heap).
    const bool exact_only = stage > 0 && pieces > 1;
    if (innermost_space && innermost_space->name == loop &&
        std::bernoulli_distribution(options_.vector_tile_bias)(rng)) {
        if (auto f = factors.sample_innermost_multiple(extent, pieces, vector_width(func), rng, exact_only)) return *f;
    }
    return factors.sample(extent, pieces, rng, exact_only);
}

bool RandomAnnotator::is_flexible(const State &sketch, const ModelFunc &f) const {
    if (f.dag_index < 0) return false;
    const Node &n = dag_.node(f.dag_index);
    if (n.is_output || !n.modelled || n.is_strict_inlinable) return false;
    const FuncSteps *g = sketch.group(f.name);
    if (!g) return false;
    for (const auto &s : g->steps) {
        if (s->kind() != "compute_root") return false;
    }
    return true;
}

std::vector<Location> RandomAnnotator::candidate_loops(const LoopNest &m, const std::string &func) const {
    std::vector<Location> at;
    auto consumers = dag_.effective_consumers(m.func(func).dag_index, m.inlined_nodes());
    // Consumers by the name that holds their loops: a factored consumer reads
    // its producers inside the intermediate.
    std::vector<std::string> names;
    for (int c : consumers) {
        names.push_back(dag_.node(c).name);
        if (const ModelFunc *intm = m.intermediate_of(names.back())) names.back() = intm->name;
    }
    if (names.size() == 1) {
        const ModelFunc &cf = m.func(names[0]);
        for (size_t s = 0; s < cf.stages.size(); s++) {
            for (const auto &l : cf.stages[s].loops) at.push_back({LocationKind::At, names[0], (int)s, l.name});
        }
    }
    // Loops that enclose every consumer's computation: a consumer's own
    // loops when the others are computed inside them, and the loops of the
    // Funcs the consumers are computed in (a chain at one consumer tile).
    auto encloses_all = [&](const Location &loc, const std::string &except) {
        for (const std::string &n : names) {
            if (n != except && !m.encloses(loc, n)) return false;
        }
        return true;
    };
    if (names.size() > 1) {
        for (const std::string &n : names) {
            const ModelFunc &cf = m.func(n);
            const int last = (int)cf.stages.size() - 1;
            for (const auto &l : cf.stages[last].loops) {
                Location loc{LocationKind::At, n, last, l.name};
                if (encloses_all(loc, n)) at.push_back(loc);
            }
        }
    }
    if (!names.empty()) {
        for (const Location &loc : m.enclosing_loops(names[0])) {
            if (encloses_all(loc, "")) at.push_back(loc);
        }
    }
    return at;
}

Location RandomAnnotator::random_location(const LoopNest &m, const std::string &func, std::mt19937_64 &rng) const {
    if (gpu_) {
        // On a GPU a Func moves between root (a kernel of its own) and
        // inline only: a Func computed inside a kernel needs the block /
        // thread context the GPU sketch rules give it.
        Location loc;
        if (std::bernoulli_distribution(0.5)(rng)) loc.kind = LocationKind::Inline;
        try {
            LoopNest probe = m;
            ComputeLocationStep(func, loc).replay(probe);
            return loc;
        } catch (const InvalidState &) {
        }
        return Location{};
    }
    const ModelFunc &f = m.func(func);
    std::vector<Location> at = candidate_loops(m, func);
    // Root (0), inline (1) or inside a consumer (2). A Func whose whole
    // buffer the allocator would map afresh on every run goes inside a
    // consumer wherever that computes little twice: the page faults of such
    // a buffer dominate a run, and the cost model, trained on small buffers,
    // cannot tell. Not inline, which recomputes it at every call. Where
    // every place inside recomputes much, root stays a choice (the
    // recomputation can cost more than the faults).
    bool root_allowed = true;
    if (!at.empty() && root_buffer_mapped_each_run(m, func)) {
        std::vector<Location> cheap;
        for (const Location &loc : at) {
            try {
                LoopNest probe = m;
                ComputeLocationStep(func, loc).replay(probe);
                if (recompute_factor(probe, func) <= kLittleRecompute) cheap.push_back(loc);
            } catch (const InvalidState &) {
            }
        }
        if (!cheap.empty()) {
            at = cheap;
            root_allowed = false;
        }
    }
    std::uniform_int_distribution<int> kind(root_allowed ? 0 : 2, 2);
    for (int attempt = 0; attempt < 4; attempt++) {
        int k = kind(rng);
        Location loc;
        // An operand of a serial reduction is computed ahead of that scalar
        // loop, not inside it (is_serial_reduction_operand).
        if (k == 1 && f.dag_index >= 0 && serial_reduction_operand_[f.dag_index]) continue;
        if (k == 1 && f.dag_index >= 0) {
            std::vector<bool> inlined = m.inlined_nodes();
            inlined[f.dag_index] = true;
            if (dag_.largest_inlined_call_count(inlined) > PipelineDAG::kMaxCallsInlinedBySearch) continue;
        }
        if (k == 1) loc.kind = LocationKind::Inline;
        if (k == 2) {
            if (at.empty()) continue;
            loc = pick(at, rng);
        }
        try {
            LoopNest probe = m;
            ComputeLocationStep(func, loc).replay(probe);
            return loc;
        } catch (const InvalidState &) {
        }
    }
    return Location{};
}

RandomAnnotator::Anchors RandomAnnotator::anchors_of(const State &state) {
    Anchors out;
    for (const FuncSteps &g : state.groups()) {
        for (const StepPtr &step : g.steps) {
            const Location *loc = step->placement();
            if (loc && loc->kind == LocationKind::At) out.insert({loc->func, loc->stage, loc->loop});
            const Location *store = step->storage();
            if (store && store->kind == LocationKind::At) out.insert({store->func, store->stage, store->loop});
        }
    }
    return out;
}

bool RandomAnnotator::is_consumer_tile(const SplitStep &split, LoopKind kind, const Anchors &anchors,
                                       const LoopNest &m) {
    if (kind != LoopKind::Space || split.factors.size() != 1) return false;
    if (anchors.count({split.func(), split.stage, split.piece_names()[0]})) return true;
    // Producers computed per step of this stage's reduction
    // (tile_for_reduction_steps) cover the tile, as they would at its
    // outer loop.
    for (const auto &[func, stage, loop] : anchors) {
        if (func != split.func() || stage != split.stage) continue;
        const ModelStage &st = m.stage(func, stage);
        const int k = st.find(loop);
        if (k >= 0 && st.loops[k].kind == LoopKind::Reduction) return true;
    }
    return false;
}

void RandomAnnotator::annotate_stage(State &out, LoopNest &m, const std::string &func, int stage,
                                     std::mt19937_64 &rng, const Anchors &anchors) {
    if (gpu_) {
        annotate_gpu_stage(out, m, func, stage, rng);
        return;
    }
    auto add = [&](StepPtr s) {
        s->replay(m);
        out.add(std::move(s));
    };
    // Vectorise the innermost space loop, splitting off a native-width piece
    // when the loop is not yet a constant-sized register tile (a variable
    // extent, or a consumer tile wider than one).
    {
        const ModelStage &st = m.stage(func, stage);
        if (!st.loops.empty()) {
            const ModelLoop &inner = st.loops.back();
            int width = vector_width(func);
            if (inner.kind == LoopKind::Space && inner.annotation == Annotation::None) {
                if (inner.constant_extent && inner.extent >= 2 && inner.extent <= options_.max_innermost_factor) {
                    add(std::make_shared<AnnotateStep>(func, stage, inner.name, Annotation::Vectorize));
                } else if (inner.extent >= width && width > 1) {
                    auto split = std::make_shared<SplitStep>(func, stage, inner.name, std::vector<int64_t>{width});
                    std::string piece = split->piece_names().back();
                    add(split);
                    add(std::make_shared<AnnotateStep>(func, stage, piece, Annotation::Vectorize));
                }
            }
        }
    }
    // A transposing read in blocks of lanes x lanes (block_transpose.h).
    if (auto block = stage == 0 ? transposing_read(dag_, m, func, vector_width(func)) : std::nullopt) {
        for (StepPtr &step : transpose_block_steps(m, func, *block)) add(std::move(step));
    }
    // Parallelise the leading space loops of Funcs at root, fusing as many
    // as it takes to balance the machine's threads (sometimes one more).
    if (m.func(func).location.kind == LocationKind::Root) {
        const ModelStage &st = m.stage(func, stage);
        std::vector<std::string> lead;
        std::vector<int64_t> prods;
        int64_t prod = 1;
        for (const auto &l : st.loops) {
            if (l.kind != LoopKind::Space || l.annotation != Annotation::None) break;
            if (lead.size() == max_fused_loops(stage) || repeats_a_dim(st, lead, l)) break;
            // A loop a producer is (or will be) placed at keeps its name: it may
            // be parallelised alone, but not fused with the loops outside it.
            bool anchor = anchors.count({func, stage, l.name}) || m.has_attached(func, stage, l.name);
            if (anchor && !lead.empty()) break;
            prod *= l.extent;
            lead.push_back(l.name);
            prods.push_back(prod);
            if (anchor) break;
        }
        if (!lead.empty() && prod >= 2) {
            size_t k = 1;
            while (k < lead.size() && !balances_threads(prods[k - 1], options_.parallelism)) k++;
            if (k < lead.size() && std::bernoulli_distribution(0.25)(rng)) k++;
            std::vector<std::string> fused(lead.begin(), lead.begin() + k);
            // Tiny tasks (rows of a Func no rule tiled): split the innermost
            // fused loop, its outer piece taking the place (parallel_tasks.h).
            const std::vector<int64_t> coarse = coarse_factors(m, func, stage, fused, anchors, options_.parallelism);
            if (!coarse.empty() && std::bernoulli_distribution(kCoarseTaskShare)(rng)) {
                auto split = std::make_shared<SplitStep>(func, stage, fused.back(), std::vector<int64_t>{pick(coarse, rng)});
                fused.back() = split->piece_names()[0];
                add(split);
            }
            std::string target = fused[0];
            if (fused.size() >= 2) {
                auto fuse = std::make_shared<FuseStep>(func, stage, fused);
                target = fuse->fused_name();
                add(fuse);
            }
            add(std::make_shared<AnnotateStep>(func, stage, target, Annotation::Parallel));
        }
    }
    const std::vector<int> unroll_steps = auto_unroll_choices(m, func, stage);
    if (unroll_steps.empty()) return;
    int unroll = pick(unroll_steps, rng);
    if (unroll > 0) add(std::make_shared<AutoUnrollStep>(func, stage, unroll));
}

State RandomAnnotator::annotate(const State &sketch, std::mt19937_64 &rng) {
    if (gpu_) {
        State out = annotate_gpu(sketch, rng);
        check_inlined_bodies(dag_, inlined_by(out), has_likely_);
        return out;
    }
    State out(dag_);
    LoopNest m(dag_);
    const Anchors anchors = anchors_of(sketch);
    // The sketch's own nest: where its producers sit in their consumers'
    // final loop order (the pieces of a split loop they do not read that
    // enclose them keep one iteration, unread_tile_loops.h).
    std::optional<LoopNest> sketch_nest;
    if (!anchors.empty()) {
        try {
            sketch_nest = sketch.replay();
        } catch (const InvalidState &) {
        }
    }
    // The model grows while we walk it (rfactor adds Funcs right after their
    // origin), so walk by index.
    for (size_t i = 0; i < m.funcs().size(); i++) {
        const std::string func = m.funcs()[i].name;
        bool flexible = is_flexible(sketch, m.funcs()[i]);
        if (const FuncSteps *g = sketch.group(func)) {
            for (const StepPtr &step : g->steps) {
                StepPtr s = step;
                if (flexible && step->kind() == "compute_root") {
                    s = std::make_shared<ComputeLocationStep>(func, random_location(m, func, rng));
                } else if (auto split = step->as<SplitStep>(); split && !split->filled()) {
                    const ModelLoop &loop = m.loop(func, split->stage, split->loop);
                    std::vector<int64_t> factors =
                        sample_tile(m, func, split->stage, split->loop, (int)split->factors.size(),
                                    is_consumer_tile(*split, loop.kind, anchors, m), rng);
                    if (const size_t k = sketch_nest ? pieces_repeating_producers(*sketch_nest, *split) : 0) {
                        std::vector<int64_t> whole = with_single_iterations(factors, loop.extent, k);
                        if (whole[k - 1] <= options_.max_consumer_tile) factors = whole;
                    }
                    s = std::make_shared<SplitStep>(func, split->stage, split->loop, factors);
                }
                s->replay(m);
                out.add(s);
            }
        }
        const ModelFunc &f = m.func(func);
        if (f.location.kind == LocationKind::Inline) continue;
        const bool modelled = is_modelled(m, f);
        for (size_t s = 0; s < f.stages.size(); s++) {
            if (modelled) annotate_stage(out, m, func, (int)s, rng, anchors);
            else annotate_unmodelled_stage(out, m, func, (int)s, anchors);
        }
    }
    limit_unroll_steps(out, m);
    // Placements drawn Func by Func can add up to a body too large to
    // compile (inlined_bodies.h); the sampler draws again.
    check_inlined_bodies(dag_, m.inlined_nodes(), has_likely_);
    // A per-step tile too large for the caches is a draw that does not fit
    // (reduction_step_tiles.h); the sampler draws again.
    check_reduction_step_tiles(m);
    // So is a scan's buffer inside a loop that the allocator would map
    // afresh at every iteration (root_buffers.h).
    check_unmodelled_buffers_inside_loops(m);
    // And a scan's strip only a few points wide (scan_strip_widths.h).
    check_scan_strip_widths(m, target_);
    // A split by 1 of a Func whose region varies from tile to tile would make
    // the pipeline ask for inputs wider than it reads (unit_split_bounds.h);
    // the sampler draws again.
    check_unit_split_bounds(out, m);
    return out;
}

// Whether some Func of the program is computed or stored at a loop of a
// stage with a reduction (or of an intermediate, which may have one): only
// such a program can step over a tile (reduction_step_tiles.h), and the
// others need no replay to say so.
bool RandomAnnotator::places_in_a_reduction_stage(const State &program) const {
    for (const FuncSteps &g : program.groups()) {
        for (const StepPtr &step : g.steps) {
            for (const Location *loc : {step->placement(), step->storage()}) {
                if (!loc || loc->kind != LocationKind::At) continue;
                const std::optional<int> node = dag_.index_of(loc->func);
                if (!node) return true;
                const std::vector<StageInfo> &stages = dag_.node(*node).stages;
                if (loc->stage >= (int)stages.size() || stages[loc->stage].has_reduction()) return true;
            }
        }
    }
    return false;
}

bool RandomAnnotator::places_an_unmodelled_func_in_a_loop(const State &program) const {
    for (const FuncSteps &g : program.groups()) {
        const std::optional<int> node = dag_.index_of(g.func);
        if (!node || !unmodelled_[*node]) continue;
        for (const StepPtr &step : g.steps) {
            const Location *loc = step->placement();
            if (loc && loc->kind == LocationKind::At) return true;
        }
    }
    return false;
}

std::vector<bool> RandomAnnotator::inlined_by(const State &program) const {
    std::vector<bool> out(dag_.nodes().size(), false);
    for (const FuncSteps &g : program.groups()) {
        for (const StepPtr &step : g.steps) {
            const Location *loc = step->placement();
            const std::optional<int> node = loc ? dag_.index_of(step->func()) : std::nullopt;
            if (node) out[*node] = loc->kind == LocationKind::Inline;
        }
    }
    return out;
}

std::string RandomAnnotator::misfit(const State &program) const {
    try {
        check_inlined_bodies(dag_, inlined_by(program), has_likely_);
        if (!gpu_ && !places_in_a_reduction_stage(program) && !has_unit_split(program, read_under_clamp_) &&
            !places_an_unmodelled_func_in_a_loop(program)) {
            return "";
        }
        const LoopNest m = program.replay();
        if (gpu_) {
            check_gpu_program(program, m);
        } else {
            check_reduction_step_tiles(m);
            check_unmodelled_buffers_inside_loops(m);
            check_scan_strip_widths(m, target_);
            check_unit_split_bounds(program, m);
        }
    } catch (const InvalidState &e) {
        return e.what();
    }
    return "";
}

}  // namespace ansor
