// Programs the fuzzer found the search building wrongly (ansor_fuzz,
// docs/fuzzing.md) where Halide 14's bounds inference reads outside the
// input or asks for more of it: reads through boundary clamps, and splits
// by 1 under clamps or guarded tiles.
#include "annotate/unit_split_bounds.h"
#include "annotate/random_annotator.h"
#include "state/state.h"
#include "state/clamped_reads.h"
#include "state/steps.h"
#include "measure_test_support.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

using namespace ansor;
using namespace Halide;

TEST_CASE("a Func read through a boundary clamp behind an inlined consumer counts as read through the clamp") {
    // Seed 361: an upsample read plainly by a Func that a boundary condition
    // clamps; inlined, the clamp bounds the upsample's region, and a split
    // shifted inwards there read the input's column -1.
    ImageParam in(UInt(16), 2, "rc_in");
    in.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, 64);
    Var x("x"), y("y");
    Func up("rc_up"), mid("rc_mid"), edge("rc_edge"), out("rc_out");
    up(x, y) = in(x / 2, y / 2);
    mid(x, y) = up(x, y) + 1;
    edge(x, y) = mid(clamp(x, 0, 127), clamp(y, 0, 127));
    out(x, y) = edge(x - 1, y) + edge(x + 1, y);
    out.set_estimate(x, 0, 128).set_estimate(y, 0, 128);
    const PipelineDAG dag({out.function()}, 2);
    const int up_node = *dag.index_of(ansor_test::resolve(dag, "rc_up"));
    std::vector<bool> inlined(dag.nodes().size(), false);
    CHECK_FALSE(read_through_clamp(dag, up_node, inlined));
    inlined[*dag.index_of(ansor_test::resolve(dag, "rc_mid"))] = true;
    CHECK(read_through_clamp(dag, up_node, inlined));
    CHECK(read_through_clamp(dag, *dag.index_of(ansor_test::resolve(dag, "rc_mid")), {}));
}

namespace {

// `refused` splits by 1 where Halide would bound its reads wrong: the check
// refuses it, saying `why`, and so does the annotator's fit; each of `fine`
// passes both.
void check_unit_split_refused_alone(const PipelineDAG &dag, const State &refused, std::initializer_list<State> fine,
                                    const char *why) {
    AnnotationOptions ao;
    ao.parallelism = 2;
    const RandomAnnotator annotator(dag, ansor_test::cpu_target(), ao);
    CHECK_THROWS_WITH_AS(check_unit_split_bounds(refused, refused.replay()), doctest::Contains(why), InvalidState);
    CHECK_FALSE(annotator.fits_target(refused));
    for (const State &s : fine) {
        CHECK_NOTHROW(check_unit_split_bounds(s, s.replay()));
        CHECK(annotator.fits_target(s));
    }
}

}  // namespace

TEST_CASE("a Func computed inside its consumer's loop under a clamp is not split by 1") {
    // Seeds 354, 368, 491: a matrix product computed at a stencil's tile
    // loop, read through the stencil's boundary clamp, had its update's x
    // split by 1. Halide 14 guards no split by 1, and its bounds inference
    // then asks for inputs far wider than the pipeline reads.
    ImageParam in(Float(32), 2, "cus_in");
    in.dim(0).set_estimate(0, 63).dim(1).set_estimate(0, 35);
    Var x("x"), y("y");
    RDom r(0, 8);
    Func mm("cus_mm"), edge("cus_edge"), out("cus_out");
    mm(x, y) = 0.f;
    mm(x, y) += in(x, r + y);
    edge(x, y) = mm(clamp(x, 0, 62), clamp(y, 0, 27));
    out(x, y) = edge(x - 2, y) + edge(x + 2, y);
    out.set_estimate(x, 0, 63).set_estimate(y, 0, 28);

    SUBCASE("Halide's bounds: a split by 1 asks for more of the input, a split by 2 does not") {
        auto input_columns = [&](int factor) {
            // The same pipeline, scheduled directly in Halide as the program lowers.
            Var xo("xo"), xi("xi"), a("a"), b("b");
            ImageParam fresh(Float(32), 2, "cus_in_" + std::to_string(factor));
            Func m("cus_mm_" + std::to_string(factor)), e("cus_edge_" + std::to_string(factor)),
                o("cus_out_" + std::to_string(factor));
            m(x, y) = 0.f;
            m(x, y) += fresh(x, r + y);
            e(x, y) = m(clamp(x, 0, 62), clamp(y, 0, 27));
            o(x, y) = e(x - 2, y) + e(x + 2, y);
            o.split(x, xo, xi, 9);
            m.compute_at(o, xo);
            m.update(0).split(x, a, b, factor, TailStrategy::GuardWithIf);
            Buffer<float> result(63, 28);
            o.infer_input_bounds(result);
            return fresh.get().dim(0).extent();
        };
        CHECK(input_columns(2) == 63);
        CHECK(input_columns(1) > 63);
    }

    SUBCASE("the search refuses the split by 1 there, and nowhere else") {
        const PipelineDAG dag({out.function()}, 2);
        const std::string o = ansor_test::resolve(dag, "cus_out"), m = ansor_test::resolve(dag, "cus_mm"),
                          e = ansor_test::resolve(dag, "cus_edge");
        auto program = [&](int64_t factor, bool at_tile) {
            State s(dag);
            s.add(std::make_shared<ComputeLocationStep>(e, Location{LocationKind::Inline, "", 0, ""}));
            s.add(std::make_shared<SplitStep>(o, 0, "x", std::vector<int64_t>{9}));
            if (at_tile) s.add(std::make_shared<ComputeLocationStep>(m, Location{LocationKind::At, o, 0, "x_0"}));
            s.add(std::make_shared<SplitStep>(m, 1, "x", std::vector<int64_t>{factor}));
            return s;
        };
        check_unit_split_refused_alone(dag, program(1, true), {program(2, true), program(1, false)}, "under a clamp");
    }
}

TEST_CASE("a producer is not computed at a loop of a Func read through a clamp that holds a loop the clamp sizes") {
    // Seed 187: `t`, read through a clamp by `conv` and computed at conv's
    // `x`, holds a row of the clamped window at its `y`; Halide 14 bounds a
    // producer computed there over every `x` by the largest start plus the
    // largest extent, asking for twice the input ([0, 372) of [0, 187)).
    auto placed = [](bool clamped, const std::string &p_loop) {
        ImageParam in(Float(32), 2, "in");
        in.dim(0).set_estimate(0, 187).dim(1).set_estimate(0, 133);
        Var x("x"), y("y");
        Func p("p"), t("t"), edge("edge"), conv("conv");
        p(x, y) = in(x, y) * 2.f;
        t(x, y) = p(x, y) + 1.f;
        if (clamped) {
            edge(x, y) = t(clamp(x, 0, 186), clamp(y, 0, 132));
        } else {
            edge(x, y) = t(x + 1, y + 1);
        }
        RDom taps(0, 3, 0, 3);
        conv(x, y) = 0.f;
        conv(x, y) += edge(x + taps.x - 1, y + taps.y - 1);
        conv.set_estimate(x, 0, 185).set_estimate(y, 0, 131);
        PipelineDAG dag({conv.function()}, 2);
        State s(dag);
        s.add(std::make_shared<ComputeLocationStep>(edge.name(), Location{LocationKind::Inline, "", 0, ""}));
        s.add(std::make_shared<ComputeLocationStep>(t.name(), Location{LocationKind::At, conv.name(), 1, "x"}));
        s.add(std::make_shared<ComputeLocationStep>(p.name(), Location{LocationKind::At, t.name(), 0, p_loop}));
        try {
            s.replay();
            return std::string();
        } catch (const InvalidState &e) {
            return std::string(e.what());
        }
    };
    CHECK(placed(true, "y").find("whose extent a clamp sets") != std::string::npos);
    CHECK(placed(true, "x") == "");   // one point of `t`'s row: nothing varies
    CHECK(placed(false, "y") == "");  // no clamp: a 3x3 window wherever `x` is
}

TEST_CASE("a Func computed inside guarded tiles under a fused loop is not split by 1") {
    // Seed 164: a matrix product's cache-write intermediate, computed at a
    // loop of the product's update under a fusion of its outer tile loops,
    // had its y split by 1. The update's tiles are guarded, and through the
    // fused loop Halide 14 bounds the guarded tile's start and extent apart.
    ImageParam in(Float(32), 2, "ugf_in");
    in.dim(0).set_estimate(0, 35).dim(1).set_estimate(0, 20);
    Var x("x"), y("y");
    RDom r(0, 20);
    Func mm("ugf_mm"), out("ugf_out");
    mm(x, y) = 0.f;
    mm(x, y) += in(r, y) * in(x, r);
    out(x, y) = mm(x, y) * 2.f;
    out.set_estimate(x, 0, 35).set_estimate(y, 0, 20);

    SUBCASE("Halide's bounds: only a split by 1 under the fused loop asks for more rows") {
        auto input_rows = [&](int factor, bool fuse) {
            // The same pipeline, scheduled directly in Halide as the program lowers.
            const std::string tag = std::to_string(factor) + (fuse ? "f" : "");
            Var y0("y0"), y1("y1"), x0("x0"), x1("x1"), f("f"), a("a"), b("b");
            ImageParam fresh(Float(32), 2, "ugf_in_" + tag);
            Func m("ugf_mm_" + tag), o("ugf_out_" + tag);
            m(x, y) = 0.f;
            m(x, y) += fresh(r, y) * fresh(x, r);
            o(x, y) = m(x, y) * 2.f;
            m.compute_root();
            Func intm = m.update(0).rfactor({});
            m.update(0)
                .split(y, y0, y1, 4, TailStrategy::GuardWithIf)
                .split(x, x0, x1, 7, TailStrategy::GuardWithIf)
                .reorder(y1, x1, x0, y0);
            if (fuse) m.update(0).fuse(x0, y0, f);
            intm.compute_at(m, x1);
            intm.update(0).split(y, a, b, factor, TailStrategy::GuardWithIf);
            Buffer<float> result(35, 20);
            o.infer_input_bounds(result);
            return fresh.get().dim(1).extent();
        };
        CHECK(input_rows(1, false) == 20);
        CHECK(input_rows(2, true) == 20);
        CHECK(input_rows(1, true) > 20);
    }

    SUBCASE("the search refuses the split by 1 there, and nowhere else") {
        const PipelineDAG dag({out.function()}, 2);
        const std::string m = ansor_test::resolve(dag, "ugf_mm"), intm = intermediate_name(m);
        auto program = [&](int64_t factor, bool fuse) {
            State s(dag);
            s.add(std::make_shared<ComputeLocationStep>(m, Location{LocationKind::Root, "", 0, ""}));
            s.add(std::make_shared<CacheWriteStep>(m));
            s.add(std::make_shared<SplitStep>(m, 1, "y", std::vector<int64_t>{4}));
            s.add(std::make_shared<SplitStep>(m, 1, "x", std::vector<int64_t>{7}));
            s.add(std::make_shared<ReorderStep>(m, 1, std::vector<std::string>{"y_0", "x_0", "x_1", "y_1"}));
            if (fuse) s.add(std::make_shared<FuseStep>(m, 1, std::vector<std::string>{"y_0", "x_0"}));
            s.add(std::make_shared<ComputeLocationStep>(intm, Location{LocationKind::At, m, 1, "x_1"}));
            s.add(std::make_shared<SplitStep>(intm, 1, "y", std::vector<int64_t>{factor}));
            return s;
        };
        check_unit_split_refused_alone(dag, program(1, true), {program(2, true), program(1, false)},
                                       "under guarded tiles and a fused loop");
    }
}
