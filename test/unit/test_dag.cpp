#include "dag/pipeline_dag.h"
#include "test_pipelines.h"
#include "util/errors.h"

#include <doctest/doctest.h>

using namespace ansor;

namespace {
const Node &node(const PipelineDAG &d, const std::string &name) { return d.node(*d.index_of(ansor_test::resolve(d, name))); }
}  // namespace

TEST_CASE("dag: matmul stages, loops and predicates") {
    auto p = ansor_test::make_matmul(64);
    PipelineDAG dag(p.functions(), 2);
    const Node &mm = node(dag, "matmul");
    CHECK(mm.is_output);
    REQUIRE(mm.stages.size() == 2);
    CHECK_FALSE(mm.stages[0].has_reduction());
    const auto &upd = mm.stages[1];
    CHECK(upd.has_reduction());
    CHECK(upd.space_points() == 64 * 64);
    CHECK(upd.reduction_points() == 64);
    CHECK(upd.rvars_reorderable);
    CHECK(mm.has_data_reuse);
    CHECK_FALSE(mm.is_strict_inlinable);
    CHECK_FALSE(mm.has_more_reduction_parallel);
    // Two reads per point (A and B) in the update.
    CHECK(upd.calls.size() == 2);
    CHECK(dag.flop_count() == doctest::Approx(2.0 * 64 * 64 * 64));
}

TEST_CASE("dag: a batch of one does not hide a matmul's data reuse") {
    // output(j, i, b) += lhs(r, i, b) * rhs(j, r, b) with b of extent 1: every
    // read uses b, yet each lhs value is still read for every j.
    Halide::ImageParam lhs(Halide::Float(32), 3, "lhs"), rhs(Halide::Float(32), 3, "rhs");
    Halide::Var j("j"), i("i"), b("b");
    Halide::RDom r(0, 32, "r");
    Halide::Func out("bmm");
    out(j, i, b) = 0.f;
    out(j, i, b) += lhs(r, i, b) * rhs(j, r, b);
    lhs.dim(0).set_estimate(0, 32).dim(1).set_estimate(0, 32).dim(2).set_estimate(0, 1);
    rhs.dim(0).set_estimate(0, 32).dim(1).set_estimate(0, 32).dim(2).set_estimate(0, 1);
    out.set_estimate(j, 0, 32).set_estimate(i, 0, 32).set_estimate(b, 0, 1);
    PipelineDAG dag({out.function()}, 2);
    CHECK(node(dag, "bmm").has_data_reuse);
}

TEST_CASE("dag: fusible consumer, inlinable and reduction-parallel predicates") {
    auto relu = ansor_test::make_matmul_relu(64);
    PipelineDAG d1(relu.functions(), 2);
    int mm = *d1.index_of(ansor_test::resolve(d1, "matmul"));
    auto c = d1.fusible_consumer(mm, std::vector<bool>(d1.nodes().size(), false));
    REQUIRE(c);
    CHECK(d1.node(*c).name == ansor_test::resolve(d1, "relu"));

    auto norm = ansor_test::make_norm(256);
    PipelineDAG d2(norm.functions(), 2);
    CHECK(node(d2, "sumsq").has_more_reduction_parallel);

    auto chain = ansor_test::make_elementwise_chain();
    PipelineDAG d3(chain.functions(), 2);
    CHECK(node(d3, "a").is_strict_inlinable);
    CHECK(node(d3, "b").is_strict_inlinable);
    CHECK_FALSE(node(d3, "out").is_strict_inlinable);
}

TEST_CASE("dag: bounds propagate backwards from the output estimates") {
    auto blur = ansor_test::make_blur(256, 128);
    PipelineDAG dag(blur.functions(), 2);
    const Node &bx = node(dag, "blur_x");
    REQUIRE(bx.region.size() == 2);
    CHECK(bx.region[0].extent == 256);
    CHECK(bx.region[1].extent == 130);  // the 3-tap stencil in y needs two more rows
    CHECK_FALSE(bx.is_strict_inlinable);  // a stencil, not elementwise
}

TEST_CASE("dag: a missing estimate is a user error naming the Func and dimension") {
    Halide::ImageParam in(Halide::Float(32), 2, "in");
    in.dim(0).set_estimate(0, 16).dim(1).set_estimate(0, 16);
    Halide::Var x("x"), y("y");
    Halide::Func f("needs_estimate");
    f(x, y) = in(x, y) * 2.f;
    f.set_estimate(x, 0, 16);  // y has none
    CHECK_THROWS_WITH_AS(PipelineDAG({f.function()}, 2), doctest::Contains("'needs_estimate' has no estimate for dimension 1"),
                         UserError);

    Halide::ImageParam bare(Halide::Float(32), 1, "bare_input");
    Halide::Func g("g");
    g(x) = bare(x);
    g.set_estimate(x, 0, 16);
    CHECK_THROWS_WITH_AS(PipelineDAG({g.function()}, 2), doctest::Contains("'bare_input' has no estimate for dimension 0"),
                         UserError);
}

TEST_CASE("dag: a histogram scatter is not modelled but does not fail") {
    Halide::ImageParam in(Halide::UInt(8), 2, "img");
    in.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, 64);
    Halide::Var x("x"), y("y"), i("i");
    Halide::RDom r(0, 64, 0, 64, "r");
    Halide::Func hist("hist"), eq("eq");
    hist(i) = 0;
    hist(Halide::cast<int>(in(r.x, r.y))) += 1;
    eq(x, y) = hist(Halide::cast<int>(in(x, y)));
    eq.set_estimate(x, 0, 64).set_estimate(y, 0, 64);
    PipelineDAG dag({eq.function()}, 2);
    const Node &h = node(dag, "hist");
    CHECK_FALSE(h.modelled);
    CHECK_FALSE(h.why_not_modelled.empty());
}

TEST_CASE("dag: offsets a Func computes, clamped by a Param, bound the region read at the Param's estimate") {
    auto p = ansor_test::make_sample_offsets(40, 24, 3);
    PipelineDAG dag(p.functions(), 2);
    const Node &src = node(dag, "src");
    CHECK(src.modelled);
    REQUIRE(src.region.size() == 2);
    CHECK(src.region[0].min == -3);
    CHECK(src.region[0].extent == 46);
    CHECK(src.region[1].extent == 25);
}
