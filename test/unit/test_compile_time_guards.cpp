// Programs whose compile time explodes in Halide 14, found by the fuzzer
// (docs/fuzzing.md): the search no longer draws them.
#include "annotate/inlined_bodies.h"
#include "annotate/random_annotator.h"
#include "search/mutations.h"
#include "search/program_sampler.h"
#include "sketch/sketch_generator.h"
#include "state/state.h"
#include "state/steps.h"
#include "lowering_test_support.h"
#include "measure_test_support.h"
#include "test_pipelines.h"
#include "util/target.h"

#include <doctest/doctest.h>

using namespace ansor;
using namespace Halide;

TEST_CASE("no drawn program inlines a large body behind a boundary condition") {
    // Seeds 70 and 105: a 7-tap stencil of an edge Func over a 5x5 stencil of
    // a sum, all inlined, compiled past 60 s; with the 5x5 stencil at root,
    // in 5 s.
    ImageParam a(Float(32), 2, "ga"), b(Float(32), 2, "gb");
    a.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, 64);
    b.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, 64);
    Var x("x"), y("y");
    Func sum("gsum"), box("gbox"), wide("gwide");
    sum(x, y) = a(x, y) + b(x, y);
    Expr s = 0.f;
    for (int j = 0; j < 5; j++)
        for (int i = 0; i < 5; i++) s += sum(x + i, y + j);
    box(x, y) = s;
    Func edge = BoundaryConditions::repeat_edge(box, {{0, 60}, {0, 60}});
    Expr w = 0.f;
    for (int i = 0; i < 7; i++) w += (float)(i + 1) * edge(x + i - 3, y);
    wide(x, y) = w;
    wide.set_estimate(x, 0, 60).set_estimate(y, 0, 60);
    PipelineDAG dag({wide.function()}, 2);
    const std::vector<bool> boundary = boundary_condition_nodes(dag);
    const int wide_node = *dag.index_of(ansor_test::resolve(dag, "gwide"));
    const int edge_node = *dag.index_of(ansor_test::resolve(dag, edge.name()));
    const int box_node = *dag.index_of(ansor_test::resolve(dag, "gbox"));
    const int sum_node = *dag.index_of(ansor_test::resolve(dag, "gsum"));
    CHECK(boundary[edge_node]);
    CHECK_FALSE(boundary[box_node]);

    // The measure: calls read through the edge Func's clamps.
    std::vector<bool> inlined(dag.nodes().size(), true);
    inlined[wide_node] = false;
    CHECK(calls_through_boundaries(dag, wide_node, inlined, boundary) == 7 * 25 * 2);
    CHECK_THROWS_AS(check_inlined_bodies(dag, inlined, boundary), InvalidState);
    inlined[sum_node] = false;
    CHECK(calls_through_boundaries(dag, wide_node, inlined, boundary) == 7 * 25);
    CHECK_THROWS_AS(check_inlined_bodies(dag, inlined, boundary), InvalidState);
    inlined[box_node] = false;
    CHECK(calls_through_boundaries(dag, wide_node, inlined, boundary) == 7);
    CHECK(calls_through_boundaries(dag, box_node, inlined, boundary) == 0);
    CHECK_NOTHROW(check_inlined_bodies(dag, inlined, boundary));

    // Drawn programs and their mutants keep to it, however the placements
    // add up (the sketch inlines the sum and the edge Func; the annotator
    // draws the box's place).
    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, ansor_test::cpu_target(), ao);
    ProgramSampler sampler(generate_sketches({dag, ansor_test::cpu_target()}), annotator);
    Mutator mutator(annotator, ao);
    std::mt19937_64 rng(11);
    int programs = 0, box_inlined = 0;
    auto check_program = [&](const State &program) {
        const std::vector<bool> now = program.replay().inlined_nodes();
        CAPTURE(program.source());
        CHECK_NOTHROW(check_inlined_bodies(dag, now, boundary));
        box_inlined += now[box_node];
        programs++;
    };
    for (int i = 0; i < 60; i++) {
        std::optional<State> program = sampler.sample(rng);
        if (!program) continue;
        check_program(*program);
        for (int k = 0; k < 4; k++) {
            std::optional<State> child = mutator.mutate(*program, MutationKind::ComputeLocation, rng);
            if (child) check_program(*child);
        }
    }
    CHECK(programs > 60);
    // The box is still inlined where the edge Func is not.
    CHECK(box_inlined > 0);
}

TEST_CASE("stages vectorised by a width Halide runs scalar draw small auto-unroll steps only") {
    // Seed 110: a matrix product's 9-wide tile (a width one past a multiple
    // of the 16-byte vector unit's lanes, so a scalar loop) unrolled 3 x 48
    // x 3 around its reduction compiled past 60 s; unrolled 16, in 2.9 s.
    ImageParam in(Float(32), 2, "gin");
    in.dim(0).set_estimate(0, 117).dim(1).set_estimate(0, 32);
    Var x("x"), y("y");
    Func f("gscaled");
    f(x, y) = in(x, y) * 2.f;
    f.set_estimate(x, 0, 117).set_estimate(y, 0, 32);
    PipelineDAG dag({f.function()}, 2);
    const std::string name = ansor_test::resolve(dag, "gscaled");
    AnnotationOptions ao;
    RandomAnnotator annotator(dag, Halide::Target(kAvx512Target), ao);
    auto choices_for_width = [&](int64_t width) {
        return ansor_test::auto_unroll_choices_for_vector_width(dag, annotator, name, width);
    };
    const std::vector<int> all = ao.auto_unroll_steps, small = {0, 16};
    CHECK(vector_width_breaks_codegen(9, 4));
    CHECK(choices_for_width(9) == small);
    CHECK(choices_for_width(13) == small);
    CHECK(choices_for_width(12) == all);  // vectorised: three 16-byte units
    CHECK(choices_for_width(16) == all);
}
