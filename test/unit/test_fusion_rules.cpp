// Producers computed inside their consumer's tiles: the sketch rules
// compute_at_consumer_tile and multi_level_tiling_at_consumer_tile, chains
// of producers at one consumer loop, and the annotator and mutation reaching
// those places. Programs of the new sketches must compute what the
// all-at-root reference computes.
#include "annotate/random_annotator.h"
#include "measure/measurer.h"
#include "search/mutations.h"
#include "search/program_sampler.h"
#include "sketch/sketch_generator.h"
#include "measure_test_support.h"
#include "sketch_test_support.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

#include <functional>

using namespace ansor;

namespace {

Halide::Target cpu() { return ansor_test::cpu_target(); }

// D = (A * B) * E: a matrix product whose consumer is another one (no
// elementwise consumer to fuse into), like conv -> conv.
ansor_test::Pipe make_matmul_chain(int n = 32) {
    using namespace Halide;
    ImageParam A(Float(32), 2, "A"), B(Float(32), 2, "B"), E(Float(32), 2, "E");
    Func C = ansor_test::matmul(A, B, n, "first");
    E.dim(0).set_estimate(0, n).dim(1).set_estimate(0, n);
    Var x("x"), y("y");
    RDom k(0, n, "kk");
    Func D("second");
    D(x, y) = 0.f;
    D(x, y) += C(k, y) * E(x, k);
    D.set_estimate(x, 0, n).set_estimate(y, 0, n);
    return {{D}};
}

std::string name_of(const PipelineDAG &dag, const std::string &base) { return ansor_test::resolve(dag, base); }

// The reorder of a Func's stage, outermost first (empty if none).
std::vector<std::string> reorder_of(const State &s, const std::string &func, int stage) {
    if (const FuncSteps *g = s.group(func)) {
        for (const auto &step : g->steps) {
            if (auto r = step->as<ReorderStep>(); r && r->stage == stage) return r->order;
        }
    }
    return {};
}

bool at(const std::optional<Location> &l, const std::string &func, const std::string &loop) {
    return l && l->kind == LocationKind::At && l->func == func && l->loop == loop;
}

// `per_sketch` random annotations of each sketch that `pick` selects.
std::vector<State> annotate_sketches(const PipelineDAG &dag, const std::vector<State> &sketches, int per_sketch,
                                     const std::function<bool(const State &)> &pick,
                                     const std::vector<int> &auto_unroll_steps = AnnotationOptions{}.auto_unroll_steps) {
    AnnotationOptions ao;
    ao.parallelism = 2;
    ao.auto_unroll_steps = auto_unroll_steps;
    RandomAnnotator annotator(dag, cpu(), ao);
    std::mt19937_64 rng(5);
    std::vector<State> out;
    for (const State &sketch : sketches) {
        if (!pick(sketch)) continue;
        int made = 0;
        for (int attempt = 0; attempt < 20 * per_sketch && made < per_sketch; attempt++) {
            try {
                State s = annotator.annotate(sketch, rng);
                s.replay();
                out.push_back(s);
                made++;
            } catch (const InvalidState &) {
            }
        }
        CHECK(made == per_sketch);
    }
    return out;
}

}  // namespace

TEST_CASE("fusion rules: a stencil chain is computed inside the output's outer tile") {
    ansor_test::Pipe p = ansor_test::make_stencil_chain(40, 24, 3);
    PipelineDAG dag(p.functions(), 2);
    const std::string out = name_of(dag, "out"), s1 = name_of(dag, "stage_1"), s0 = name_of(dag, "stage_0");
    auto sketches = generate_sketches({dag, cpu()});
    // Every stage at root, the chain in the output's tile, the chain in
    // stage_1's tile (stage_1 at root), and stage_0 alone at root with only
    // the boundary Func in its tile; each but the first also sliding
    // (sliding_window_at_consumer_tile, test_sliding_window.cpp).
    CHECK(sketches.size() == 7);
    bool chain_in_out = false, chain_in_stage_1 = false;
    for (const State &s : sketches) {
        // "SS": the two space loops split once; the outer tile is the
        // second loop of the reorder (y_0, x_0, y_1, x_1).
        const std::vector<std::string> out_order = reorder_of(s, out, 0);
        if (out_order.size() == 4 && at(ansor_test::placement_of(s, s1), out, out_order[1])) {
            CHECK(at(ansor_test::placement_of(s, s0), out, out_order[1]));
            CHECK(out_order[1].find("_0") != std::string::npos);
            chain_in_out = true;
        }
        const std::vector<std::string> s1_order = reorder_of(s, s1, 0);
        if (s1_order.size() == 4 && at(ansor_test::placement_of(s, s0), s1, s1_order[1])) {
            CHECK(ansor_test::placement_of(s, s1)->kind == LocationKind::Root);
            chain_in_stage_1 = true;
        }
    }
    CHECK(chain_in_out);
    CHECK(chain_in_stage_1);
}

TEST_CASE("fusion rules: depthwise -> pointwise gets the depthwise tiled inside the pointwise's tile") {
    ansor_test::Pipe p = ansor_test::make_depthwise_pointwise();
    PipelineDAG dag(p.functions(), 2);
    const std::string dw = name_of(dag, "depthwise"), pw = name_of(dag, "pointwise");
    const std::string boundary = name_of(dag, "repeat_edge");
    bool found = false, boundary_in_depthwise_tile = false;
    for (const State &s : generate_sketches({dag, cpu()})) {
        // The depthwise at root: its padded input in its outer tile, though
        // its initial stage reads the bias (an inlined input wrapper).
        const std::vector<std::string> dw_order = reorder_of(s, dw, 1);
        if (dw_order.size() > 3 && at(ansor_test::placement_of(s, boundary), dw, dw_order[2])) boundary_in_depthwise_tile = true;
        auto dw_loc = ansor_test::placement_of(s, dw), pw_loc = ansor_test::placement_of(s, pw);
        if (!dw_loc || dw_loc->kind != LocationKind::At) continue;
        // The pointwise is fused into the output's tile (rule 4); the
        // depthwise joins it at the same loop, tiled "SSRSRS".
        REQUIRE(pw_loc);
        CHECK(*dw_loc == *pw_loc);
        CHECK(reorder_of(s, dw, 1).size() == 3 * 4 + 2 * 2);  // 3 space loops x 4 + 2 RVars x 2
        found = true;
    }
    CHECK(found);
    CHECK(boundary_in_depthwise_tile);
}

TEST_CASE("fusion rules: a matrix product feeding another is tiled at the consumer's outer tile") {
    ansor_test::Pipe p = make_matmul_chain();
    PipelineDAG dag(p.functions(), 2);
    const std::string first = name_of(dag, "first"), second = name_of(dag, "second");
    int found = 0;
    for (const State &s : generate_sketches({dag, cpu()})) {
        auto loc = ansor_test::placement_of(s, first);
        if (!loc || loc->kind != LocationKind::At) continue;
        // The consumer's last stage: "SSRSRS" (its first level is y_0, x_0)
        // or, after a cache write, the merge stage's "SSS" (y_0, x_0).
        const std::vector<std::string> order = reorder_of(s, second, 1);
        REQUIRE(order.size() >= 2);
        CHECK(at(loc, second, order[1]));
        CHECK(reorder_of(s, first, 1).size() == 2 * 4 + 2);
        found++;
    }
    // Two placements (the consumer tiled, or cache-written), each also with
    // the consumer's E and the producer's B staged where the consumer's
    // reduction is not cache-written (cache_read_at_consumer_tile): 4 + 2.
    CHECK(found == 6);
}

TEST_CASE("fusion rules: a producer may sit at a loop of an ancestor consumer only if it encloses its consumer") {
    ansor_test::Pipe p = ansor_test::make_stencil_chain(40, 24, 3);
    PipelineDAG dag(p.functions(), 2);
    const std::string out = name_of(dag, "out"), s1 = name_of(dag, "stage_1"), s0 = name_of(dag, "stage_0");
    State base(dag);
    auto split_x = std::make_shared<SplitStep>(out, 0, "x", std::vector<int64_t>{8});
    auto split_y = std::make_shared<SplitStep>(out, 0, "y", std::vector<int64_t>{4});
    base.add(split_y);
    base.add(split_x);
    base.add(std::make_shared<ReorderStep>(out, 0, std::vector<std::string>{"y_0", "x_0", "y_1", "x_1"}));
    auto place = [&](State s, const std::string &func, const Location &l) {
        s.add(std::make_shared<ComputeLocationStep>(func, l));
        return s;
    };
    const Location outer{LocationKind::At, out, 0, "x_0"}, inner{LocationKind::At, out, 0, "y_1"};

    // stage_1 in the outer tile, stage_0 with it: stage_0 covers stage_1's
    // tile (8 x 4 plus a 1-point border) plus its own border.
    LoopNest m = place(place(base, s1, outer), s0, outer).replay();
    CHECK(m.func(s1).extents == std::vector<int64_t>{10, 6});
    CHECK(m.func(s0).extents == std::vector<int64_t>{12, 8});
    // stage_1 inside the row loop of the tile; stage_0 outside it, at the tile: legal.
    m = place(place(base, s1, inner), s0, outer).replay();
    CHECK(m.func(s0).extents == std::vector<int64_t>{12, 8});
    // stage_0 deeper than its consumer, or in a tile its consumer is not in: illegal.
    CHECK_THROWS_AS(place(place(base, s1, outer), s0, inner).replay(), InvalidState);
    CHECK_THROWS_AS(place(place(base, s1, Location{}), s0, outer).replay(), InvalidState);
    // stage_1 inlined: the output reads stage_0 itself, through stage_1's stencil.
    m = place(place(base, s1, Location{LocationKind::Inline, "", 0, ""}), s0, outer).replay();
    CHECK(m.func(s0).extents == std::vector<int64_t>{12, 8});
}

TEST_CASE("fusion rules: annotation and mutation reach the tile loops of an ancestor consumer") {
    ansor_test::Pipe p = ansor_test::make_stencil_chain(40, 24, 3);
    PipelineDAG dag(p.functions(), 2);
    const std::string out = name_of(dag, "out"), s1 = name_of(dag, "stage_1"), s0 = name_of(dag, "stage_0");
    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, cpu(), ao);

    // stage_1 at the output's row loop: stage_0 may go to stage_1's loops or
    // to the output's loops that enclose stage_1.
    State s(dag);
    s.add(std::make_shared<SplitStep>(out, 0, "x", std::vector<int64_t>{8}));
    s.add(std::make_shared<ComputeLocationStep>(s1, Location{LocationKind::At, out, 0, "y"}));
    LoopNest m = s.replay();
    std::vector<std::string> out_loops;
    for (const Location &l : annotator.candidate_loops(m, s0)) {
        if (l.func == out) out_loops.push_back(l.loop);
    }
    CHECK(out_loops == std::vector<std::string>{"y"});

    // Mutating the chain's locations lands stage_0 at an output loop while
    // stage_1 is computed inside that loop, from samples that had it elsewhere.
    ProgramSampler sampler(generate_sketches({dag, cpu()}), annotator);
    std::mt19937_64 rng(3);
    int ancestor_moves = 0;
    for (int i = 0; i < 300 && ancestor_moves == 0; i++) {
        auto parent = sampler.sample(rng);
        REQUIRE(parent);
        auto child = mutate_compute_location(*parent, annotator, rng);
        if (!child) continue;
        auto before = ansor_test::placement_of(*parent, s0), after = ansor_test::placement_of(*child, s0);
        auto consumer = ansor_test::placement_of(*child, s1);
        if (after && after->kind == LocationKind::At && after->func == out && consumer &&
            consumer->kind == LocationKind::At && !(before && *before == *after)) {
            ancestor_moves++;
        }
    }
    CHECK(ancestor_moves > 0);
}

TEST_CASE("fusion rules: programs of the new sketches compute what the reference computes") {
    struct Case {
        std::string name;
        ansor_test::Pipe pipe;
    };
    std::vector<Case> cases = {{"stencil_chain", ansor_test::make_stencil_chain(40, 24, 3)},
                               {"depthwise_pointwise", ansor_test::make_depthwise_pointwise(12, 8, 16)},
                               {"matmul_chain", make_matmul_chain(32)}};
    for (auto &c : cases) {
        CAPTURE(c.name);
        PipelineDAG dag(c.pipe.functions(), 2);
        const std::vector<State> sketches = generate_sketches({dag, cpu()});
        // A sketch is new when some Func is computed at a loop of a Func
        // that does not call it (a chain member), or inside a consumer the
        // old rules never tiled: every sketch with a compute_at whose Func
        // has no elementwise consumer to be fused into.
        // Sketches with a staged operand are test_cache_read.cpp's to run.
        auto is_new = [&](const State &s) {
            if (s.structure_key().find("cache_read ") != std::string::npos) return false;
            LoopNest m = s.replay();
            for (const ModelFunc &f : m.funcs()) {
                if (f.dag_index < 0 || f.location.kind != LocationKind::At) continue;
                if (!dag.fusible_consumer(f.dag_index, m.inlined_nodes())) return true;
            }
            return false;
        };
        // The compute locations are under test, not unrolling (test_measure.cpp's
        // sampled programs draw every auto-unroll step): steps of at most 16
        // keep the matrix chain's programs quick to compile.
        std::vector<State> programs = annotate_sketches(dag, sketches, 3, is_new, {0, 16});
        CHECK(programs.size() >= 3);
        ansor_test::expect_all_correct(dag, programs);
    }
}

TEST_CASE("fusion rules: a consumer tile may be wider than a register tile, its inner piece split for vectors") {
    ansor_test::Pipe p = ansor_test::make_stencil_chain(1024, 64, 3);
    PipelineDAG dag(p.functions(), 2);
    const std::string out = name_of(dag, "out"), s1 = name_of(dag, "stage_1");
    AnnotationOptions ao;
    ao.parallelism = 2;
    REQUIRE(ao.max_innermost_factor == 64);
    REQUIRE(ao.max_consumer_tile == 512);
    // Sketches whose output is tiled "SS" with stage_1 in its outer tile.
    auto chain_in_out = [&](const State &s) {
        const std::vector<std::string> order = reorder_of(s, out, 0);
        return order.size() == 4 && at(ansor_test::placement_of(s, s1), out, order[1]);
    };
    std::vector<State> programs = annotate_sketches(dag, generate_sketches({dag, cpu()}), 40, chain_in_out);
    REQUIRE(!programs.empty());
    int64_t widest = 0;
    std::vector<State> wide;
    for (const State &s : programs) {
        const FuncSteps *g = s.group(out);
        REQUIRE(g);
        const SplitStep *tile_x = nullptr;
        for (const auto &step : g->steps) {
            auto split = step->as<SplitStep>();
            if (split && split->loop == "x" && split->factors.size() == 1) tile_x = split;
        }
        REQUIRE(tile_x);
        const int64_t width = tile_x->factors[0];
        CHECK(width <= ao.max_consumer_tile);
        widest = std::max(widest, width);
        const std::string inner = tile_x->piece_names().back();
        bool inner_vectorised = false, piece_of_inner_vectorised = false;
        for (const auto &step : g->steps) {
            auto a = step->as<AnnotateStep>();
            if (!a || a->annotation != Annotation::Vectorize) continue;
            inner_vectorised = inner_vectorised || a->loop == inner;
            piece_of_inner_vectorised = piece_of_inner_vectorised || a->loop.rfind(inner + "_", 0) == 0;
        }
        // Wider than a register tile: a native-width piece of it is the vector.
        if (width > ao.max_innermost_factor) {
            CHECK_FALSE(inner_vectorised);
            CHECK(piece_of_inner_vectorised);
            if (wide.size() < 3) wide.push_back(s);
        }
    }
    CHECK(widest > ao.max_innermost_factor);
    REQUIRE(!wide.empty());
    ansor_test::expect_all_correct(dag, wide);

    // Mutation keeps a consumer tile within its own limit, not the register one.
    const State &parent = wide[0];
    std::mt19937_64 rng(9);
    int64_t mutated_widest = 0;
    for (int i = 0; i < 400; i++) {
        auto child = mutate_tile_size(parent, ao, rng);
        if (!child) continue;
        const State &mutated = *child;
        for (const auto &step : mutated.group(out)->steps) {
            auto split = step->as<SplitStep>();
            if (split && split->loop == "x" && split->factors.size() == 1) {
                CHECK(split->factors[0] <= ao.max_consumer_tile);
                mutated_widest = std::max(mutated_widest, split->factors[0]);
            }
        }
    }
    CHECK(mutated_widest > ao.max_innermost_factor);
}
