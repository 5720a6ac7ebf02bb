// The shared-value rule (src/sketch/shared_value_rule.cpp): a strictly
// inlinable Func read at one point across a whole consumer loop (a per-pixel
// ratio read by every colour channel) keeps a sketch computing it at the
// consumer's tile, beside the inlined one, or instead of it where the value
// costs many operations; a Func read at every point of its consumer's
// loops, or one shared across most of them (a colour matrix), does not; the
// tile keeps the whole channel loop inside it; the new programs compute what
// the reference computes.
#include "annotate/random_annotator.h"
#include "measure_test_support.h"
#include "sketch_test_support.h"
#include "search/mutations.h"
#include "search/program_sampler.h"
#include "sketch/sketch_generator.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

using namespace ansor;
using namespace Halide;

namespace {

// out(x, y, c) = in(x, y, c) * ratio(x, y), ratio = (1 + luma) / (1 + luma^2),
// luma the channels' mean: unsharp mask's shape (a division: arithmetic cost
// 7). `cheap`: ratio = luma * 0.5 instead (cost 1). `gain` is read per
// channel.
ansor_test::Pipe make_shared_ratio(int w, int h, bool cheap = false) {
    ImageParam in(Float(32), 3, "in");
    in.dim(0).set_estimate(0, w).dim(1).set_estimate(0, h).dim(2).set_estimate(0, 3);
    Var x("x"), y("y"), c("c");
    Func luma("luma"), ratio("ratio"), gain("gain"), out("out");
    luma(x, y) = (in(x, y, 0) + in(x, y, 1) + in(x, y, 2)) / 3.f;
    if (cheap) {
        ratio(x, y) = luma(x, y) * 0.5f;
    } else {
        ratio(x, y) = (1.f + luma(x, y)) / (1.f + luma(x, y) * luma(x, y));
    }
    gain(x, y, c) = in(x, y, c) * 0.5f + 0.25f;
    out(x, y, c) = gain(x, y, c) * ratio(x, y);
    out.set_estimate(x, 0, w).set_estimate(y, 0, h).set_estimate(c, 0, 3);
    return {{out}};
}

std::vector<State> sketches_with(const PipelineDAG &dag, const std::string &func, LocationKind kind) {
    std::vector<State> out;
    for (const State &s : generate_sketches({dag, ansor_test::cpu_target()})) {
        auto loc = ansor_test::placement_of(s, ansor_test::resolve(dag, func));
        if (loc && loc->kind == kind) out.push_back(s);
    }
    return out;
}

}  // namespace

TEST_CASE("shared value rule: a cheap value read by every channel is computed at the consumer's tile beside inlining") {
    auto p = make_shared_ratio(256, 128, true);
    PipelineDAG dag(p.functions(), 2);
    const std::string out = ansor_test::resolve(dag, "out");
    const std::vector<State> at_tile = sketches_with(dag, "ratio", LocationKind::At);
    REQUIRE(at_tile.size() >= 1);
    for (const State &s : at_tile) {
        // At the output's outer tile loop, with every loop's inner piece
        // (the channel's included) inside it.
        const LoopNest m = s.replay();
        const ModelFunc &r = m.func(ansor_test::resolve(dag, "ratio"));
        CHECK(r.location.func == out);
        CHECK(r.location.loop.find("_0") != std::string::npos);
        bool channel_inside = false, below = false;
        for (const ModelLoop &l : m.stage(out, 0).loops) {
            if (below && l.name.rfind("c_", 0) == 0) channel_inside = true;
            below = below || l.name == r.location.loop;
        }
        CHECK(channel_inside);
    }
    CHECK(!sketches_with(dag, "ratio", LocationKind::Inline).empty());
    // gain is read at every point of the output: only inlined.
    CHECK(sketches_with(dag, "gain", LocationKind::At).empty());
    CHECK(sketches_with(dag, "gain", LocationKind::Root).empty());
}

TEST_CASE("shared value rule: a costly value read by every channel is only computed at the consumer's tile") {
    auto p = make_shared_ratio(256, 128);
    PipelineDAG dag(p.functions(), 2);
    CHECK(!sketches_with(dag, "ratio", LocationKind::At).empty());
    CHECK(sketches_with(dag, "ratio", LocationKind::Inline).empty());
    CHECK(sketches_with(dag, "ratio", LocationKind::Root).empty());
}

TEST_CASE("shared value rule: sampled programs and new tile sizes keep the whole channel loop inside the value's tile") {
    auto p = make_shared_ratio(256, 128);
    PipelineDAG dag(p.functions(), 2);
    const std::string out = ansor_test::resolve(dag, "out"), ratio = ansor_test::resolve(dag, "ratio");
    const std::vector<State> at_tile = sketches_with(dag, "ratio", LocationKind::At);
    REQUIRE(!at_tile.empty());
    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, ansor_test::cpu_target(), ao);
    ProgramSampler sampler(at_tile, annotator);
    Mutator mutator(annotator, ao);
    std::mt19937_64 rng(5);
    // The channel loop's pieces outside ratio's location: one iteration.
    auto channel_outside = [&](const State &program) {
        const LoopNest m = program.replay();
        const ModelFunc &r = m.func(ratio);
        int64_t iterations = 1;
        for (const ModelLoop &l : m.stage(out, 0).loops) {
            for (const auto &[dim, covered] : l.origins) iterations *= dim == "c" ? covered : 1;
            if (l.name == r.location.loop) break;
        }
        return iterations;
    };
    int mutants = 0;
    for (int i = 0; i < 16; i++) {
        auto program = sampler.sample(rng);
        REQUIRE(program.has_value());
        CHECK(channel_outside(*program) == 1);
        for (int k = 0; k < 8; k++) {
            if (auto mutant = mutator.mutate(*program, MutationKind::TileSize, rng)) {
                mutants++;
                CHECK(channel_outside(*mutant) == 1);
            }
        }
    }
    CHECK(mutants > 0);
}

TEST_CASE("shared value rule: a single-channel consumer reads the value at every point: only inlined") {
    ImageParam in(Float(32), 2, "in");
    in.dim(0).set_estimate(0, 256).dim(1).set_estimate(0, 128);
    Var x("x"), y("y");
    Func ratio("ratio"), out("out");
    ratio(x, y) = (1.f + in(x, y)) / (1.f + in(x, y) * in(x, y));
    out(x, y) = in(x, y) * ratio(x, y);
    out.set_estimate(x, 0, 256).set_estimate(y, 0, 128);
    PipelineDAG dag({out.function()}, 2);
    CHECK(sketches_with(dag, "ratio", LocationKind::At).empty());
    CHECK(!sketches_with(dag, "ratio", LocationKind::Inline).empty());
}

TEST_CASE("shared value rule: a small table read per channel only (a colour matrix) is only inlined") {
    ImageParam in(Float(32), 3, "in");
    Param<float> temperature("temperature", 0.5f);
    in.dim(0).set_estimate(0, 256).dim(1).set_estimate(0, 128).dim(2).set_estimate(0, 3);
    Var x("x"), y("y"), c("c");
    Func matrix("matrix"), out("out");
    matrix(c) = 1.f + temperature * cast<float>(c) * 0.25f;
    out(x, y, c) = in(x, y, c) * matrix(c);
    out.set_estimate(x, 0, 256).set_estimate(y, 0, 128).set_estimate(c, 0, 3);
    PipelineDAG dag({out.function()}, 2);
    CHECK(sketches_with(dag, "matrix", LocationKind::At).empty());
    CHECK(!sketches_with(dag, "matrix", LocationKind::Inline).empty());
}

TEST_CASE("shared value rule: programs with the value at the consumer's tile compute the reference's output") {
    auto p = make_shared_ratio(200, 70);
    PipelineDAG dag(p.functions(), 2);
    const std::vector<State> at_tile = sketches_with(dag, "ratio", LocationKind::At);
    REQUIRE(!at_tile.empty());
    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, ansor_test::cpu_target(), ao);
    ProgramSampler sampler(at_tile, annotator);
    std::mt19937_64 rng(3);
    std::vector<State> programs;
    for (int i = 0; i < 4; i++) {
        auto program = sampler.sample(rng);
        REQUIRE(program.has_value());
        CHECK(program->replay().func(ansor_test::resolve(dag, "ratio")).location.kind == LocationKind::At);
        programs.push_back(*program);
    }
    ansor_test::expect_all_correct(dag, programs);
}
