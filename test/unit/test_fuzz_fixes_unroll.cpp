// Programs the fuzzer found the search building wrongly (ansor_fuzz,
// docs/fuzzing.md) whose auto-unroll steps made them compile for minutes:
// stages that read through boundary clamps, hold partial vectors, compute
// in wider types or carry large inlined bodies draw small steps only.
#include "annotate/random_annotator.h"
#include "search/mutations.h"
#include "state/state.h"
#include "state/steps.h"
#include "lowering_test_support.h"
#include "measure_test_support.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

#include <set>

using namespace ansor;
using namespace Halide;

TEST_CASE("stages that read through a boundary condition draw small auto-unroll steps only") {
    // Seed 268: a constant_exterior Func tiled 36 x 56 with its 56 rows
    // auto-unrolled (step 64) compiled in 88 s; without the unroll in 2.4 s.
    ImageParam in(Float(32), 2, "in");
    in.dim(0).set_estimate(0, 70).dim(1).set_estimate(0, 54);
    Var x("x"), y("y");
    Func ext = BoundaryConditions::constant_exterior(in, 0.f);
    Func scaled("scaled"), blur("blur"), plain("plain");
    scaled(x, y) = ext(x, y) * 2.f;
    blur(x, y) = scaled(x - 1, y) + scaled(x, y) + scaled(x + 1, y);
    plain(x, y) = blur(x, y) * 0.5f;
    plain.set_estimate(x, 0, 70).set_estimate(y, 0, 54);
    PipelineDAG dag({plain.function()}, 2);
    const std::string ext_name = ansor_test::resolve(dag, ext.name()), scaled_name = ansor_test::resolve(dag, "scaled");
    const std::string blur_name = ansor_test::resolve(dag, "blur"), plain_name = ansor_test::resolve(dag, "plain");

    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, ansor_test::cpu_target(), ao);
    const std::vector<int> all = ao.auto_unroll_steps, small = {0, 16};
    // constant_exterior is a select over repeat_edge, which holds the
    // clamps; repeat_edge and the input wrappers are inlined into it.
    State roots(dag);
    for (const std::string &f : {blur_name, scaled_name, ext_name}) roots.add(std::make_shared<ComputeLocationStep>(f, Location{}));
    for (const Node &n : dag.nodes()) {
        if (n.name != ext_name && n.name != scaled_name && n.name != plain_name && n.name != blur_name) {
            roots.add(std::make_shared<ComputeLocationStep>(n.name, Location{LocationKind::Inline, "", 0, ""}));
        }
    }
    const LoopNest at_root = roots.replay();
    CHECK(annotator.auto_unroll_choices(at_root, ext_name, 0) == small);     // the clamps are its own
    CHECK(annotator.auto_unroll_choices(at_root, scaled_name, 0) == all);    // reads a buffer the boundary Func wrote
    CHECK(annotator.auto_unroll_choices(at_root, plain_name, 0) == all);
    // With the boundary Func inlined into `scaled`, `scaled` carries the clamps.
    State inlined = roots;
    inlined.group(ext_name).steps.back() = std::make_shared<ComputeLocationStep>(ext_name, Location{LocationKind::Inline, "", 0, ""});
    CHECK(annotator.auto_unroll_choices(inlined.replay(), scaled_name, 0) == small);
    CHECK(annotator.auto_unroll_choices(inlined.replay(), blur_name, 0) == all);

    // Sampled programs and their mutants keep to it in every stage that
    // reads through the boundary once the program is finished (a placement
    // drawn after a stage's step, or a mutation that moves a Func, may
    // inline the boundary into it).
    std::mt19937_64 rng(7);
    Mutator mutator(annotator, ao);
    int checked = 0;
    auto check_program = [&](const State &program) {
        const LoopNest m = program.replay();
        for (const ModelFunc &f : m.funcs()) {
            if (f.location.kind == LocationKind::Inline || annotator.auto_unroll_choices(m, f.name, 0) != small) continue;
            for (const ModelStage &st : f.stages) {
                CHECK(st.auto_unroll_max_step <= RandomAnnotator::kMaxUnrollThroughBoundary);
                checked++;
            }
        }
    };
    for (int i = 0; i < 40; i++) {
        State program = annotator.annotate(inlined, rng);
        check_program(program);
        for (int k = 0; k < 4; k++) {
            if (auto child = mutator.mutate(program, rng)) program = *child;
            check_program(program);
            if (auto child = mutate_auto_unroll(program, annotator, rng)) program = *child;
            check_program(program);
        }
    }
    CHECK(checked > 0);
}

TEST_CASE("a body with many calls through boundary clamps draws fewer unrolled copies") {
    // Seed 209: a 5x5 stencil of an inlined, clamped upsample, 100 calls
    // through the clamps in the output's body, compiled past 60 s unrolled
    // 16 times, in 12 s unrolled 8 times, in 3 s 4 times.
    auto choices = [](int taps) {
        ImageParam in(Float(32), 2, "in");
        in.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, 64);
        Var x("x"), y("y");
        Func edge = BoundaryConditions::repeat_edge(in);
        Func stencil("stencil");
        Expr sum = 0.f;
        for (int j = 0; j < taps; j++) {
            for (int i = 0; i < taps; i++) sum += edge(x + i, y + j) * (float)(i + j + 1);
        }
        stencil(x, y) = sum;
        stencil.set_estimate(x, 0, 64).set_estimate(y, 0, 64);
        PipelineDAG dag({stencil.function()}, 2);
        const std::string name = ansor_test::resolve(dag, "stencil");
        State program(dag);
        for (const Node &n : dag.nodes()) {
            if (n.name != name) program.add(std::make_shared<ComputeLocationStep>(n.name, Location{LocationKind::Inline, "", 0, ""}));
        }
        AnnotationOptions ao;
        ao.parallelism = 2;
        RandomAnnotator annotator(dag, ansor_test::cpu_target(), ao);
        const LoopNest m = program.replay();
        const int64_t cap = annotator.max_unroll_step(m, name, 0);
        // Drawn programs keep to the cap.
        std::mt19937_64 rng(3);
        for (int i = 0; i < 10; i++) {
            for (const ModelStage &st : annotator.annotate(program, rng).replay().func(name).stages) {
                CHECK(st.auto_unroll_max_step <= cap);
            }
        }
        return annotator.auto_unroll_choices(m, name, 0);
    };
    CHECK(choices(5) == std::vector<int>{0, 16});  // 25 calls through the clamps, 16 copies
    CHECK(choices(11) == std::vector<int>{0});     // 121 calls: 4 copies at most, which no step is
}

TEST_CASE("stages vectorised by a part of a native vector draw small auto-unroll steps only") {
    // Seed 77: a matrix product's 59-wide vector tile, unrolled 512 steps,
    // compiled past 60 s; unrolled 16, in 3.3 s. Seed 368: a 2-wide one,
    // past 60 s; unrolled 16, 4.8 s.
    ImageParam in(Float(32), 2, "in");
    in.dim(0).set_estimate(0, 118).dim(1).set_estimate(0, 32);
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = in(x, y) * 2.f;
    f.set_estimate(x, 0, 118).set_estimate(y, 0, 32);
    PipelineDAG dag({f.function()}, 2);
    const std::string name = ansor_test::resolve(dag, "f");
    AnnotationOptions ao;
    // 16 floats to a vector; nothing here runs.
    RandomAnnotator annotator(dag, Halide::Target(kAvx512Target), ao);
    auto choices_for_width = [&](int64_t width) {
        return ansor_test::auto_unroll_choices_for_vector_width(dag, annotator, name, width);
    };
    const std::vector<int> all = ao.auto_unroll_steps, small = {0, 16};
    CHECK(choices_for_width(59) == small);
    CHECK(choices_for_width(20) == small);
    CHECK(choices_for_width(32) == all);  // two whole vectors of 16 floats
    CHECK(choices_for_width(8) == all);   // half a vector
    CHECK(choices_for_width(7) == small);
    CHECK(choices_for_width(2) == small);
}

TEST_CASE("stages whose body computes in a wider type than their output count vectors of that type for unrolling") {
    // Seed 31: a uint8 stencil computed in uint32, vectorised 64 lanes (one
    // native uint8 vector, four of uint32), unrolled 464 copies: past 60 s.
    ImageParam in(UInt(8), 2, "in");
    in.dim(0).set_estimate(0, 256).dim(1).set_estimate(0, 64);
    Var x("x"), y("y");
    Func narrow("narrow"), wide("wide"), scaled("scaled"), offset("offset"), curve("curve"), toned("toned");
    // Coordinates are address arithmetic: narrow computes in uint8 only.
    narrow(x, y) = in(2 * x / 2, y) + in(x, y + 1);
    // Seed 430: a uint8 table read at an index computed in float from the
    // data computes in float, 40 lanes unrolled 112 copies: past 60 s.
    curve(x) = cast<uint8_t>(x / 4);
    toned(x, y) = curve(clamp(cast<int>(in(x, y) * 2.5f), 0, 1023));
    wide(x, y) = cast<uint8_t>((cast<uint32_t>(in(x, y)) + in(x, y + 1) + in(x, y + 2)) / 3);
    // offset computes in uint8 itself, in uint32 once scaled is inlined.
    scaled(x, y) = cast<uint8_t>(cast<uint32_t>(in(x, y)) * 3 / 4);
    offset(x, y) = scaled(x, y) + 1;
    for (Func f : {narrow, wide, offset, toned}) f.set_estimate(x, 0, 128).set_estimate(y, 0, 32);
    const PipelineDAG toned_dag({toned.function()}, 2);
    CHECK(toned_dag.node(*toned_dag.index_of(ansor_test::resolve(toned_dag, "toned"))).widest_value_bytes == 4);

    const PipelineDAG offset_dag({offset.function()}, 2);
    const int off = *offset_dag.index_of(ansor_test::resolve(offset_dag, "offset"));
    std::vector<bool> inlined(offset_dag.nodes().size(), false);
    CHECK(offset_dag.node(off).widest_value_bytes == 1);
    CHECK(offset_dag.inlined_widest_value_bytes(off, inlined) == 1);
    inlined[*offset_dag.index_of(ansor_test::resolve(offset_dag, "scaled"))] = true;
    CHECK(offset_dag.inlined_widest_value_bytes(off, inlined) == 4);

    AnnotationOptions ao;
    const std::vector<int> all = ao.auto_unroll_steps, small = {0, 16};
    // 64 uint8 or 16 uint32 lanes to a vector; nothing here runs. The
    // helper inlines every Func but the one vectorised.
    auto choices = [&](Func f, int64_t width) {
        const PipelineDAG dag({f.function()}, 2);
        const RandomAnnotator annotator(dag, Halide::Target(kAvx512Target), ao);
        return ansor_test::auto_unroll_choices_for_vector_width(dag, annotator, ansor_test::resolve(dag, f.name()), width);
    };
    CHECK(choices(narrow, 64) == all);
    CHECK(choices(wide, 32) == all);    // two vectors of uint32
    CHECK(choices(wide, 64) == small);  // four
    CHECK(choices(offset, 64) == small);
    CHECK(choices(toned, 32) == all);    // two vectors of float
    CHECK(choices(toned, 40) == small);  // more
}

TEST_CASE("stages whose inlined producers make a large body draw small auto-unroll steps only") {
    // nl_means's zero-shot program inlined its patch distances (294 calls)
    // into `sums` and unrolled 112 copies of them: not compiled within 120 s.
    ImageParam in(Float(32), 2, "in");
    in.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, 64);
    Var x("x"), y("y");
    Func d("d"), box_x("box_x"), box("box"), out("out");
    // out calls box twice, box calls box_x 7 times, box_x calls d 7 times,
    // d calls the input twice.
    d(x, y) = in(x, y) - in(x + 1, y);
    Expr sx = 0.f, sy = 0.f;
    for (int i = 0; i < 7; i++) sx += d(x + i, y);
    box_x(x, y) = sx;
    for (int i = 0; i < 7; i++) sy += box_x(x, y + i);
    box(x, y) = sy;
    out(x, y) = box(x, y) + box(x + 1, y);
    out.set_estimate(x, 0, 48).set_estimate(y, 0, 48);
    PipelineDAG dag({out.function()}, 2);
    const std::string out_name = ansor_test::resolve(dag, "out");
    AnnotationOptions ao;
    RandomAnnotator annotator(dag, ansor_test::cpu_target(), ao);
    const std::vector<int> all = ao.auto_unroll_steps, small = {0, 16};
    const std::string d_name = ansor_test::resolve(dag, "d"), bx_name = ansor_test::resolve(dag, "box_x"),
                      box_name = ansor_test::resolve(dag, "box");
    // `inline_set` names which of d, box_x and box are inlined (the others
    // at root); the input's wrappers are inlined.
    auto choices = [&](const std::set<std::string> &inline_set) {
        const std::set<std::string> named = {out_name, d_name, bx_name, box_name};
        State s(dag);
        for (const Node &n : dag.nodes()) {
            const bool inl = !named.count(n.name) || inline_set.count(n.name);
            s.add(std::make_shared<ComputeLocationStep>(n.name, inl ? Location{LocationKind::Inline, "", 0, ""} : Location{}));
        }
        const LoopNest m = s.replay();
        REQUIRE(m.inlined_nodes().size() == dag.nodes().size());
        return std::pair{annotator.auto_unroll_choices(m, out_name, 0),
                         dag.inlined_call_count(*dag.index_of(out_name), m.inlined_nodes())};
    };
    const auto [none_choices, none_calls] = choices({});
    CHECK(none_calls == 2);  // two calls of box
    CHECK(none_choices == all);
    const auto [two_choices, two_calls] = choices({bx_name, box_name});
    CHECK(two_calls == 2 * 7 * 7);  // 98 calls of d: under the limit
    CHECK(two_choices == all);
    const auto [all_choices, all_calls] = choices({d_name, bx_name, box_name});
    CHECK(all_calls == 2 * 7 * 7 * 2);  // 196 calls of the input
    CHECK(all_choices == small);
}
