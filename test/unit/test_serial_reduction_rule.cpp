// The serial-reduction rule (src/sketch/serial_reduction_rule.cpp): a Func
// that a histogram's scatter reads at every pixel is computed ahead of that
// scalar loop in every sketch and every sampled program, never inlined into
// it; a Func read by a reduction with a pure loop (a row sum) is not such an
// operand; the programs compute what the reference computes.
#include "annotate/random_annotator.h"
#include "dag/definition_analysis.h"
#include "measure_test_support.h"
#include "sketch_test_support.h"
#include "search/program_sampler.h"
#include "sketch/sketch_generator.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

using namespace ansor;
using namespace Halide;

namespace {

// hist(luma(r)) += 1 over a w x h colour image, out(x, y) = hist(luma(x, y)):
// histogram_equalize's first stages.
ansor_test::Pipe make_histogram(int w, int h) {
    ImageParam in(UInt(8), 3, "in");
    in.dim(0).set_estimate(0, w).dim(1).set_estimate(0, h).dim(2).set_estimate(0, 3);
    Var i("i"), x("x"), y("y");
    Func luma("luma"), hist("hist"), out("out");
    Expr r = cast<uint16_t>(in(x, y, 0)), g = cast<uint16_t>(in(x, y, 1)), b = cast<uint16_t>(in(x, y, 2));
    luma(x, y) = cast<uint8_t>((77 * r + 150 * g + 29 * b + 128) >> 8);
    RDom pixels(0, w, 0, h, "pixels");
    hist(i) = 0;
    hist(cast<int>(luma(pixels.x, pixels.y))) += 1;
    out(x, y) = hist(cast<int>(luma(x, y)));
    out.set_estimate(x, 0, w).set_estimate(y, 0, h);
    return {{out}};
}

}  // namespace

TEST_CASE("serial reduction rule: a histogram's scatter reads luma per pixel: luma is its operand, a row sum's is not") {
    auto p = make_histogram(64, 48);
    PipelineDAG dag(p.functions(), 2);
    CHECK(is_serial_reduction_operand(dag, *dag.index_of(ansor_test::resolve(dag, "luma"))));
    CHECK_FALSE(is_serial_reduction_operand(dag, *dag.index_of(ansor_test::resolve(dag, "out"))));

    ImageParam in(Float(32), 2, "in");
    in.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, 48);
    Var x("x"), y("y");
    Func sq("sq"), rows("rows");
    sq(x, y) = in(x, y) * in(x, y) + 1.f;
    RDom r(0, 64, "r");
    rows(y) = 0.f;
    rows(y) += sq(r, y);
    rows.set_estimate(y, 0, 48);
    PipelineDAG row_sum({rows.function()}, 2);
    CHECK_FALSE(is_serial_reduction_operand(row_sum, *row_sum.index_of(ansor_test::resolve(row_sum, "sq"))));
}

TEST_CASE("serial reduction rule: no sketch and no sampled program inlines luma; the programs are correct") {
    auto p = make_histogram(96, 64);
    PipelineDAG dag(p.functions(), 2);
    const std::string luma = ansor_test::resolve(dag, "luma");
    const auto sketches = generate_sketches({dag, ansor_test::cpu_target()});
    REQUIRE(!sketches.empty());
    for (const State &s : sketches) {
        auto loc = ansor_test::placement_of(s, luma);
        CHECK((!loc || loc->kind != LocationKind::Inline));
    }
    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, ansor_test::cpu_target(), ao);
    ProgramSampler sampler(sketches, annotator);
    std::mt19937_64 rng(11);
    std::vector<State> programs;
    for (int i = 0; i < 24; i++) {
        auto program = sampler.sample(rng);
        REQUIRE(program.has_value());
        CHECK(program->replay().func(luma).location.kind != LocationKind::Inline);
        if (i < 4) programs.push_back(*program);
    }
    ansor_test::expect_all_correct(dag, programs);
}
