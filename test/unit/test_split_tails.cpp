// The tail strategy a split lowers to. Which one Halide 14 compiles
// correctly depends on where the split sits: a dim of the Func, or a piece
// of an earlier split.
#include "lowering_test_support.h"
#include "measure_test_support.h"
#include "state/state.h"
#include "state/steps.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

using namespace ansor;
using namespace Halide;

TEST_CASE("a vector split of a tile with a tail of its own is guarded where the stage unrolls") {
    // A demosaic-like stage (camera_pipe's, zero-shot's eighth finalist):
    // columns tiled 37 wide, each tile split into vectors of 8 with a tail
    // shifted inwards inside the tile shifted inwards, its rows unrolled.
    // Halide 14 then loaded a producer's row with aligned vector loads at
    // misaligned addresses, a segfault at run time; a guarded vector tail
    // compiled and ran correctly.
    ImageParam in(UInt(16), 2, "in");
    in.dim(0).set_estimate(0, 160).dim(1).set_estimate(0, 24);
    Var x("x"), y("y");
    Func edge = BoundaryConditions::repeat_edge(in);
    Func half("half"), out("out");
    half(x, y) = edge(x, y) / 2 + edge(x + 1, y) / 2;
    // Reads at stride 1: no strided read that would guard the vector tail
    // for a reason of its own (State::lower, guard_vector_tail).
    out(x, y) = half(x, y) - half(x + 1, y) + edge(x, y + 1);
    out.set_estimate(x, 0, 158).set_estimate(y, 0, 24);
    PipelineDAG dag({out.function()}, 2);
    const std::string out_name = ansor_test::resolve(dag, "out"), half_name = ansor_test::resolve(dag, "half");

    State s(dag);
    auto tile = std::make_shared<SplitStep>(out_name, 0, "x", std::vector<int64_t>{37});
    s.add(tile);
    auto vector = std::make_shared<SplitStep>(out_name, 0, tile->piece_names()[1], std::vector<int64_t>{8});
    s.add(vector);
    s.add(std::make_shared<AnnotateStep>(out_name, 0, vector->piece_names()[1], Annotation::Vectorize));
    s.add(std::make_shared<SplitStep>(out_name, 0, "y", std::vector<int64_t>{4}));
    s.add(std::make_shared<ComputeLocationStep>(half_name, Location{LocationKind::At, out_name, 0, tile->piece_names()[0]}));
    State unrolled = s;
    unrolled.add(std::make_shared<AnnotateStep>(out_name, 0, "y_1", Annotation::Unroll));

    // Unrolled: the vector split's tail is guarded; the tile's, a dim of the
    // Func, stays shifted.
    std::vector<TailStrategy> tails = ansor_test::split_tails(unrolled, out_name);
    REQUIRE(tails.size() == 3);
    CHECK(tails[0] == TailStrategy::ShiftInwards);
    CHECK(tails[1] == TailStrategy::GuardWithIf);
    ansor_test::expect_all_correct(dag, {unrolled});

    // Nothing unrolled: both stay shifted, as the model assumes.
    tails = ansor_test::split_tails(s, out_name);
    REQUIRE(tails.size() == 3);
    CHECK(tails[0] == TailStrategy::ShiftInwards);
    CHECK(tails[1] == TailStrategy::ShiftInwards);
    ansor_test::expect_all_correct(dag, {s});
}

TEST_CASE("an exact split of a tile has no tail to guard") {
    ImageParam in(Float(32), 1, "in");
    in.dim(0).set_estimate(0, 100);
    Var x("x");
    Func f("f");
    f(x) = in(x) * 2.f;
    f.set_estimate(x, 0, 100);
    PipelineDAG dag({f.function()}, 1);
    const std::string name = ansor_test::resolve(dag, "f");
    State s(dag);
    auto tile = std::make_shared<SplitStep>(name, 0, "x", std::vector<int64_t>{32});
    s.add(tile);
    s.add(std::make_shared<SplitStep>(name, 0, tile->piece_names()[1], std::vector<int64_t>{8}));
    const std::vector<TailStrategy> tails = ansor_test::split_tails(s, name);
    REQUIRE(tails.size() == 2);
    CHECK(tails[0] == TailStrategy::ShiftInwards);
    CHECK(tails[1] != TailStrategy::GuardWithIf);
    ansor_test::expect_all_correct(dag, {s});
}
