// The reduction-step rules (src/sketch/reduction_step_rule.cpp): a producer
// that its consumer's reduction reads one image per step (non-local means'
// weights per window offset) gets a sketch computing it inside the
// consumer's reduction loop, with the consumer tiled "SRS" (tiles outside,
// the reduction, the tile's pixels inside); a producer read at the
// consumer's own pixels (a matrix operand's row, a convolution's input) does
// not; the new programs compute what the reference computes.
#include "annotate/random_annotator.h"
#include "annotate/reduction_step_tiles.h"
#include "measure_test_support.h"
#include "search/mutations.h"
#include "search/program_sampler.h"
#include "sketch/sketch_generator.h"
#include "sketch_test_support.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

using namespace ansor;
using namespace Halide;

namespace {

// sums(x, y, c) = sum over the window offsets (wx, wy) of
// weight(x, y, wx, wy) * in(x + wx, y + wy, c), weight = exp(-patch),
// patch a 3-tap box of dist along x: nl_means in small (its output reads
// sums at another channel too, so sums is not fused into it).
ansor_test::Pipe make_window_weights(int w, int h) {
    ImageParam in(Float(32), 3, "in");
    in.dim(0).set_estimate(0, w).dim(1).set_estimate(0, h).dim(2).set_estimate(0, 3);
    Var x("x"), y("y"), c("c"), dx("dx"), dy("dy");
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func dist("dist"), patch("patch"), weight("weight"), sums("sums"), out("out");
    Expr d = clamped(x, y, 0) - clamped(x + dx, y + dy, 0);
    dist(x, y, dx, dy) = d * d;
    patch(x, y, dx, dy) = dist(x - 1, y, dx, dy) + dist(x, y, dx, dy) + dist(x + 1, y, dx, dy);
    weight(x, y, dx, dy) = exp(-patch(x, y, dx, dy));
    RDom win(-2, 5, -2, 5, "win");
    sums(x, y, c) = 0.f;
    sums(x, y, c) += weight(x, y, win.x, win.y) * clamped(x + win.x, y + win.y, c);
    out(x, y, c) = sums(x, y, c) / (1.f + sums(x, y, 0) * sums(x, y, 0));
    out.set_estimate(x, 0, w).set_estimate(y, 0, h).set_estimate(c, 0, 3);
    return {{out}};
}

bool at_reduction_loop(const PipelineDAG &dag, const State &s, const std::string &func) {
    auto loc = ansor_test::placement_of(s, ansor_test::resolve(dag, func));
    if (!loc || loc->kind != LocationKind::At) return false;
    const LoopNest m = s.replay();
    const ModelStage &st = m.stage(loc->func, loc->stage);
    const int k = st.find(loc->loop);
    return k >= 0 && st.loops[k].kind == LoopKind::Reduction;
}

std::vector<State> sketches_at_reduction_loop(const PipelineDAG &dag, const std::string &func) {
    std::vector<State> out;
    for (const State &s : generate_sketches({dag, ansor_test::cpu_target()})) {
        if (at_reduction_loop(dag, s, func)) out.push_back(s);
    }
    return out;
}

}  // namespace

TEST_CASE("reduction step rules: a per-offset producer is computed inside its consumer's reduction loop") {
    auto p = make_window_weights(64, 48);
    PipelineDAG dag(p.functions(), 2);
    const std::string sums = ansor_test::resolve(dag, "sums");
    const std::vector<State> found = sketches_at_reduction_loop(dag, "patch");
    REQUIRE(!found.empty());
    bool srs = false, dist_joins = false;
    for (const State &s : found) {
        const LoopNest m = s.replay();
        auto loc = ansor_test::placement_of(s, ansor_test::resolve(dag, "patch"));
        const ModelStage &st = m.stage(loc->func, loc->stage);
        // Space loops both outside (the tiles) and inside (the tile's pixels).
        const int k = st.find(loc->loop);
        bool space_outside = false, space_inside = false;
        for (int j = 0; j < (int)st.loops.size(); j++) {
            if (st.loops[j].kind != LoopKind::Space) continue;
            (j < k ? space_outside : space_inside) = true;
        }
        CHECK(space_outside);
        CHECK(space_inside);
        // "SRS": x and y tiled, the reduction loops unsplit, the channel
        // (which the weights do not vary along) whole inside the tile.
        if (loc->func == sums) {
            std::vector<std::string> names;
            for (const ModelLoop &l : st.loops) names.push_back(l.name);
            srs = srs || names == std::vector<std::string>{"x_0", "y_0", "win$y", "win$x", "c", "y_1", "x_1"} ||
                  names == std::vector<std::string>{"y_0", "x_0", "win$y", "win$x", "c", "y_1", "x_1"};
        }
        // dist, patch's producer, joins it there (chained).
        auto dist = ansor_test::placement_of(s, ansor_test::resolve(dag, "dist"));
        dist_joins = dist_joins || (dist && *dist == *loc);
    }
    CHECK(srs);
    CHECK(dist_joins);
}

TEST_CASE("reduction step rules: operands read at the consumer's own points get no such sketch") {
    // A matrix product: A(k, y) moves with y as well as k; B(x, k) with x.
    ImageParam a(Float(32), 2, "a"), b(Float(32), 2, "b");
    a.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, 64);
    b.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, 64);
    Var x("x"), y("y");
    Func sa("sa"), sb("sb"), mm("mm");
    sa(x, y) = a(x, y) * 2.f + a(x, y) * a(x, y);
    sb(x, y) = sqrt(b(x, y)) + b(x, y);
    RDom k(0, 64, "k");
    mm(x, y) = 0.f;
    mm(x, y) += sa(k, y) * sb(x, k);
    mm.set_estimate(x, 0, 64).set_estimate(y, 0, 64);
    PipelineDAG dag({mm.function()}, 2);
    for (const State &s : generate_sketches({dag, ansor_test::cpu_target()})) {
        CHECK(!at_reduction_loop(dag, s, "sa"));
        CHECK(!at_reduction_loop(dag, s, "sb"));
    }
}

TEST_CASE("reduction step rules: programs with the producer per reduction step compute the reference's output") {
    auto p = make_window_weights(70, 37);
    PipelineDAG dag(p.functions(), 2);
    const std::vector<State> found = sketches_at_reduction_loop(dag, "patch");
    REQUIRE(!found.empty());
    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, ansor_test::cpu_target(), ao);
    ProgramSampler sampler(found, annotator);
    std::mt19937_64 rng(5);
    std::vector<State> programs;
    for (int i = 0; i < 6; i++) {
        auto program = sampler.sample(rng);
        REQUIRE(program.has_value());
        CHECK(at_reduction_loop(dag, *program, "patch"));
        programs.push_back(*program);
    }
    ansor_test::expect_all_correct(dag, programs);
}

namespace {

bool inlined(const PipelineDAG &dag, const State &s, const std::string &func) {
    return s.replay().func(ansor_test::resolve(dag, func)).location.kind == LocationKind::Inline;
}

bool factored(const State &s, const std::string &func) { return s.replay().intermediate_of(func) != nullptr; }

}  // namespace

TEST_CASE("reduction step rules: a costly per-offset value shared by the channels is never inlined") {
    // weight = exp(-patch): a math call, read by sums at the same point for
    // each of its 3 channels. Inlined, it is recomputed per channel.
    auto p = make_window_weights(64, 48);
    PipelineDAG dag(p.functions(), 2);
    const std::string sums = ansor_test::resolve(dag, "sums");
    int per_step = 0;
    for (const State &s : generate_sketches({dag, ansor_test::cpu_target()})) {
        if (at_reduction_loop(dag, s, "weight")) per_step++;
        if (factored(s, sums)) continue;
        CHECK_MESSAGE(!inlined(dag, s, "weight"), s.key());
    }
    CHECK(per_step > 0);
}

TEST_CASE("reduction step rules: a cheap per-offset value keeps its inlined sketch") {
    // The same pipeline with weight = 1 - patch: one subtraction per value,
    // which inlining may well recompute for each channel.
    ImageParam in(Float(32), 3, "in");
    in.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, 48).dim(2).set_estimate(0, 3);
    Var x("x"), y("y"), c("c"), dx("dx"), dy("dy");
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func dist("dist"), patch("patch"), weight("weight"), sums("sums"), out("out");
    Expr d = clamped(x, y, 0) - clamped(x + dx, y + dy, 0);
    dist(x, y, dx, dy) = d * d;
    patch(x, y, dx, dy) = dist(x - 1, y, dx, dy) + dist(x, y, dx, dy) + dist(x + 1, y, dx, dy);
    weight(x, y, dx, dy) = 1.f - patch(x, y, dx, dy);
    RDom win(-2, 5, -2, 5, "win");
    sums(x, y, c) = 0.f;
    sums(x, y, c) += weight(x, y, win.x, win.y) * clamped(x + win.x, y + win.y, c);
    out(x, y, c) = sums(x, y, c) / (1.f + sums(x, y, 0) * sums(x, y, 0));
    out.set_estimate(x, 0, 64).set_estimate(y, 0, 48).set_estimate(c, 0, 3);
    PipelineDAG dag({out.function()}, 2);
    const std::string sums_name = ansor_test::resolve(dag, "sums");
    bool inlined_unfactored = false, per_step = false;
    for (const State &s : generate_sketches({dag, ansor_test::cpu_target()})) {
        if (factored(s, sums_name)) continue;
        inlined_unfactored = inlined_unfactored || inlined(dag, s, "weight");
        per_step = per_step || at_reduction_loop(dag, s, "weight");
    }
    CHECK(inlined_unfactored);
    CHECK(per_step);
}

namespace {

// The most points of a stage inside a reduction loop that a Func is computed
// at, over the program's Funcs (0 when none is).
int64_t largest_step_tile(const State &program) {
    const LoopNest m = program.replay();
    int64_t largest = 0;
    for (const ModelFunc &f : m.funcs()) {
        if (f.location.kind != LocationKind::At) continue;
        const ModelStage &st = m.stage(f.location.func, f.location.stage);
        const int k = st.find(f.location.loop);
        if (k < 0 || st.loops[k].kind != LoopKind::Reduction) continue;
        int64_t points = 1;
        for (size_t j = k + 1; j < st.loops.size(); j++) {
            if (st.loops[j].kind == LoopKind::Space) points *= st.loops[j].extent;
        }
        largest = std::max(largest, points);
    }
    return largest;
}

}  // namespace

TEST_CASE("reduction step rules: the tile a reduction steps over stays within the cache bound, sampled or mutated") {
    // 768 x 512 pixels, 3 channels: tiles of up to 512 a side would step
    // over 786,432 points.
    auto p = make_window_weights(768, 512);
    PipelineDAG dag(p.functions(), 2);
    const std::vector<State> found = sketches_at_reduction_loop(dag, "weight");
    REQUIRE(!found.empty());
    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, ansor_test::cpu_target(), ao);
    ProgramSampler sampler(found, annotator);
    Mutator mutator(annotator, ao);
    std::mt19937_64 rng(11);
    int mutants = 0;
    for (int i = 0; i < 24; i++) {
        auto program = sampler.sample(rng);
        REQUIRE(program.has_value());
        const int64_t tile = largest_step_tile(*program);
        CHECK(tile > 0);
        CHECK(tile <= kMaxPointsPerReductionStep);
        CHECK(annotator.fits_target(*program));
        for (int k = 0; k < 4; k++) {
            if (auto mutant = mutator.mutate(*program, MutationKind::TileSize, rng)) {
                mutants++;
                CHECK(largest_step_tile(*mutant) <= kMaxPointsPerReductionStep);
            }
        }
    }
    CHECK(mutants > 0);
}

TEST_CASE("reduction step rules: a tile over the bound is named in the error") {
    auto p = make_window_weights(768, 512);
    PipelineDAG dag(p.functions(), 2);
    const std::string sums = ansor_test::resolve(dag, "sums");
    // The sketch's SRS tiles at their largest: the whole image per step.
    for (const State &sketch : sketches_at_reduction_loop(dag, "weight")) {
        State whole = sketch;
        bool filled = false;
        for (FuncSteps &g : whole.groups()) {
            for (StepPtr &step : g.steps) {
                auto split = step->as<SplitStep>();
                if (!split || split->filled() || split->func() != sums) continue;
                const int64_t extent = split->loop == "x" ? 768 : 512;
                step = std::make_shared<SplitStep>(split->func(), split->stage, split->loop,
                                                   std::vector<int64_t>(split->factors.size(), extent));
                filled = true;
            }
        }
        if (!filled) continue;
        LoopNest m(dag);
        try {
            m = whole.replay();
        } catch (const InvalidState &) {
            continue;
        }
        CHECK_THROWS_WITH_AS(check_reduction_step_tiles(m), doctest::Contains("steps over"), InvalidState);
        return;
    }
    FAIL("no sketch could be filled with whole-image tiles");
}
