// A chain of producers computed in one consumer tile stops at a producer
// read at a coarser scale (src/sketch/producer_reads.h): a pyramid level
// read by the next, smaller level is not pulled into that level's tile by
// the chain (which would recompute most of every finer level per tile); a
// producer read at the consumer's own scale still joins it; the programs
// compute what the reference computes.
#include "annotate/random_annotator.h"
#include "measure_test_support.h"
#include "search/program_sampler.h"
#include "sketch/producer_reads.h"
#include "sketch/sketch_generator.h"
#include "sketch_test_support.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

using namespace ansor;
using namespace Halide;

namespace {

// out = 3-tap box of `level`; level = `blur` read at 2x (factor 2) or at x
// (factor 1); blur = 3-tap box of a clamped input.
ansor_test::Pipe make_pyramid_step(int factor, int w, int h) {
    ImageParam in(Float(32), 2, "in");
    in.dim(0).set_estimate(0, w).dim(1).set_estimate(0, h);
    Var x("x"), y("y");
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func blur("blur"), level("level"), out("out");
    blur(x, y) = clamped(x - 1, y) + clamped(x, y) * 2.f + clamped(x + 1, y);
    level(x, y) = blur(factor * x, factor * y - 1) + blur(factor * x, factor * y + 1);
    out(x, y) = level(x, y - 1) * 0.5f + level(x, y + 1) * sqrt(level(x, y) + 1.f);
    out.set_estimate(x, 0, w / factor).set_estimate(y, 0, h / factor);
    return {{out}};
}

// Sketches with `level` at out's tile and `blur` at the same loop.
int chains_through_blur(const PipelineDAG &dag) {
    int n = 0;
    for (const State &s : generate_sketches({dag, ansor_test::cpu_target()})) {
        auto level = ansor_test::placement_of(s, ansor_test::resolve(dag, "level"));
        auto blur = ansor_test::placement_of(s, ansor_test::resolve(dag, "blur"));
        if (level && blur && level->kind == LocationKind::At && *blur == *level) n++;
    }
    return n;
}

}  // namespace

TEST_CASE("producer reads: a read at twice the consumer's coordinates is at a coarser scale") {
    auto down = make_pyramid_step(2, 64, 48), same = make_pyramid_step(1, 64, 48);
    PipelineDAG down_dag(down.functions(), 2), same_dag(same.functions(), 2);
    auto none = [](int) { return false; };
    const int down_level = *down_dag.index_of(ansor_test::resolve(down_dag, "level"));
    const int same_level = *same_dag.index_of(ansor_test::resolve(same_dag, "level"));
    CHECK(reads_at_coarser_scale(down_dag, down_level, ansor_test::resolve(down_dag, "blur"), none));
    CHECK_FALSE(reads_at_coarser_scale(same_dag, same_level, ansor_test::resolve(same_dag, "blur"), none));
}

TEST_CASE("consumer-tile chain: stops at a producer read at a coarser scale") {
    auto down = make_pyramid_step(2, 128, 96), same = make_pyramid_step(1, 128, 96);
    PipelineDAG down_dag(down.functions(), 2), same_dag(same.functions(), 2);
    CHECK(chains_through_blur(same_dag) > 0);
    CHECK(chains_through_blur(down_dag) == 0);
}

TEST_CASE("consumer-tile chain: the pyramid step's programs compute the reference's output") {
    auto p = make_pyramid_step(2, 70, 37);
    PipelineDAG dag(p.functions(), 2);
    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, ansor_test::cpu_target(), ao);
    ProgramSampler sampler(generate_sketches({dag, ansor_test::cpu_target()}), annotator);
    std::mt19937_64 rng(7);
    std::vector<State> programs;
    for (int i = 0; i < 6; i++) {
        auto program = sampler.sample(rng);
        REQUIRE(program.has_value());
        programs.push_back(*program);
    }
    ansor_test::expect_all_correct(dag, programs);
}
