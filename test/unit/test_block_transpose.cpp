// Transposing reads in blocks (annotate/block_transpose.h): a stage that
// reads something transposed along its vector loop gets the loop over the
// read's innermost dim split by the vector width, that piece just outside
// the vector loop and unrolled; a straight read does not. Programs compute
// what the all-at-root reference computes.
#include "annotate/block_transpose.h"
#include "annotate/random_annotator.h"
#include "measure_test_support.h"
#include "sketch_test_support.h"
#include "search/program_sampler.h"
#include "sketch/sketch_generator.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

using namespace ansor;

namespace {

using namespace Halide;

// p(x, y) = sin(in(x, y)) * 3 and out(x, y) = p(y, x) + 1; with `transpose`
// false, out reads p(x, y) straight.
ansor_test::Pipe make_transpose(int n, bool transpose) {
    ImageParam in(Float(32), 2, "in");
    in.dim(0).set_estimate(0, n).dim(1).set_estimate(0, n);
    Var x("x"), y("y");
    Func p("p"), out("out");
    p(x, y) = sin(in(x, y)) * 3.f;
    if (transpose) out(x, y) = p(y, x) + 1.f;
    else out(x, y) = p(x, y) + 1.f;
    out.set_estimate(x, 0, n).set_estimate(y, 0, n);
    return {{out}};
}

// The blocks of `func`'s stage 0 in a program: an unrolled loop over `var`
// of `lanes` iterations right outside the vector loop.
bool blocked(const LoopNest &m, const std::string &func, const std::string &var, int lanes) {
    const auto &loops = m.stage(func, 0).loops;
    if (loops.size() < 2 || loops.back().annotation != Annotation::Vectorize) return false;
    const ModelLoop &l = loops[loops.size() - 2];
    return l.annotation == Annotation::Unroll && l.extent == lanes && l.origins.size() == 1 &&
           l.origins[0].first == var;
}

// The target's f32 vector width: the block's side.
int float_lanes() { return ansor_test::cpu_target().natural_vector_size<float>(); }

std::vector<State> sample_programs(const PipelineDAG &dag, int count, uint64_t seed) {
    const Halide::Target cpu = ansor_test::cpu_target();
    return ansor_test::sample_programs(dag, generate_sketches({dag, cpu}), cpu, count, seed);
}

}  // namespace

TEST_CASE("block transpose: a transposed read is blocked lanes x lanes, a straight read is not") {
    for (bool transpose : {true, false}) {
        CAPTURE(transpose);
        ansor_test::Pipe pipe = make_transpose(256, transpose);
        PipelineDAG dag(pipe.functions(), 2);
        const std::string out = ansor_test::resolve(dag, "out"), p = ansor_test::resolve(dag, "p");
        int vectorised_with_p_not_at_a_loop = 0, blocks = 0;
        for (const State &s : sample_programs(dag, 24, 7)) {
            const LoopNest m = s.replay();
            // Inlined, p's read of `in` is the transposed one.
            if (m.func(p).location.kind == LocationKind::At) continue;
            const auto &loops = m.stage(out, 0).loops;
            if (loops.empty() || loops.back().annotation != Annotation::Vectorize) continue;
            vectorised_with_p_not_at_a_loop++;
            blocks += blocked(m, out, "y", float_lanes());
        }
        REQUIRE(vectorised_with_p_not_at_a_loop > 0);
        if (transpose) CHECK(blocks == vectorised_with_p_not_at_a_loop);
        else CHECK(blocks == 0);
    }
}

TEST_CASE("block transpose: no block where the loop over the read's innermost dim holds a producer") {
    // p computed at out's y loop, which is also the loop to block: moving a
    // piece of it inward would compute p per block row instead.
    ansor_test::Pipe pipe = make_transpose(64, true);
    PipelineDAG dag(pipe.functions(), 2);
    const std::string out = ansor_test::resolve(dag, "out"), p = ansor_test::resolve(dag, "p");
    State s(dag);
    s.add(std::make_shared<ComputeLocationStep>(p, Location{LocationKind::At, out, 0, "y"}));
    s.add(std::make_shared<SplitStep>(out, 0, "x", std::vector<int64_t>{16}));
    s.add(std::make_shared<AnnotateStep>(out, 0, "x_1", Annotation::Vectorize));
    const LoopNest at_y = s.replay();
    CHECK_FALSE(transposing_read(dag, at_y, out, 16));

    State root(dag);
    root.add(std::make_shared<ComputeLocationStep>(p, Location{}));
    root.add(std::make_shared<SplitStep>(out, 0, "x", std::vector<int64_t>{16}));
    root.add(std::make_shared<AnnotateStep>(out, 0, "x_1", Annotation::Vectorize));
    const auto block = transposing_read(dag, root.replay(), out, 16);
    REQUIRE(block);
    CHECK(block->across == "y");
    CHECK(block->lanes == 16);
    // 16 does not divide 40 rows: no block.
    ansor_test::Pipe odd = make_transpose(40, true);
    PipelineDAG odd_dag(odd.functions(), 2);
    State odd_root(odd_dag);
    const std::string odd_out = ansor_test::resolve(odd_dag, "out");
    odd_root.add(std::make_shared<ComputeLocationStep>(ansor_test::resolve(odd_dag, "p"), Location{}));
    odd_root.add(std::make_shared<SplitStep>(odd_out, 0, "x", std::vector<int64_t>{8}));
    odd_root.add(std::make_shared<AnnotateStep>(odd_out, 0, "x_1", Annotation::Vectorize));
    CHECK_FALSE(transposing_read(odd_dag, odd_root.replay(), odd_out, 16));
}

TEST_CASE("block transpose: blocked programs compute what the reference computes") {
    ansor_test::Pipe pipe = make_transpose(96, true);
    PipelineDAG dag(pipe.functions(), 2);
    const std::string out = ansor_test::resolve(dag, "out");
    std::vector<State> with_blocks;
    for (const State &s : sample_programs(dag, 16, 3)) {
        if (blocked(s.replay(), out, "y", float_lanes())) with_blocks.push_back(s);
    }
    REQUIRE(with_blocks.size() >= 2);
    if (with_blocks.size() > 4) with_blocks.erase(with_blocks.begin() + 4, with_blocks.end());
    ansor_test::expect_all_correct(dag, with_blocks);
}
