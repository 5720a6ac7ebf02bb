// Pipelines that are hard to run (inputs read past their estimates, extern
// stages, Params without estimates, Tuple outputs, buffers past Halide's
// limit) and pinned bounds (buffer constraints that override estimates).
// Our own equivalents of Halide 14's test/auto_schedule programs extern,
// multi_output and param are here: each must schedule without aborting.
#include "measure/measurement_buffers.h"
#include "measure/measurer.h"
#include "measure/pipeline_runner.h"
#include "measure/runnability.h"
#include "search/autoschedule.h"

#include <Halide.h>
#include "measure_test_support.h"

#include <doctest/doctest.h>

using namespace ansor;
using namespace Halide;

extern "C" {
// An extern stage that shifts its input by (dx, dy). Exported from the test
// binary (ENABLE_EXPORTS) so that Halide's JIT finds it.
int ansor_test_shift(halide_buffer_t *in, int dx, int dy, halide_buffer_t *out) {
    if (in->is_bounds_query()) {
        in->dim[0].min = out->dim[0].min + dx;
        in->dim[1].min = out->dim[1].min + dy;
        in->dim[0].extent = out->dim[0].extent;
        in->dim[1].extent = out->dim[1].extent;
        return 0;
    }
    Runtime::Buffer<uint8_t> src(*in), dst(*out);
    dst.for_each_element([&](int x, int y) { dst(x, y) = src(x + dx, y + dy); });
    return 0;
}
}

namespace {

const Target cpu = ansor_test::cpu_target();

std::vector<Internal::Function> functions(const std::vector<Func> &fs) {
    std::vector<Internal::Function> out;
    for (const Func &f : fs) out.push_back(f.function());
    return out;
}

Options small_budget() {
    Options o;
    o.trials = 3;
    o.repeats = 1;
    o.measure_seconds = 0;
    o.progress = false;
    return o;
}

// Two extern stages of one symbol, as Halide's extern test has them.
Func two_shifts(const std::string &symbol) {
    ImageParam input(UInt(8), 2, "shift_in");
    input.set_estimates({{0, 120}, {0, 80}});
    Var x("x"), y("y");
    Func f0("f0"), f1("shift_a"), f2("shift_b"), g("g");
    f0(x, y) = input(x, y) * 2;
    f1.define_extern(symbol, {f0, Expr(3), Expr(7)}, UInt(8), 2);
    f2.define_extern(symbol, {f0, Expr(8), Expr(17)}, UInt(8), 2);
    g(x, y) = f1(x, y) + f2(x, y);
    g.set_estimates({{0, 120}, {0, 80}});
    return g;
}

bool mentions(const std::string &text, const std::string &what) { return text.find(what) != std::string::npos; }

}  // namespace

TEST_CASE("hard pipelines: extern stages the JIT resolves are measured") {
    Func g = two_shifts("ansor_test_shift");
    AutoscheduleResult r = autoschedule(functions({g}), cpu, 2, small_budget());
    CAPTURE(r.schedule_source);
    CHECK(r.not_measured_because.empty());
    CHECK(r.measured);
}

TEST_CASE("hard pipelines: an extern stage the JIT cannot resolve is scheduled without measuring") {
    Func g = two_shifts("ansor_test_defined_elsewhere");
    PipelineDAG dag(functions({g}), 2);
    std::vector<std::string> why = measurement_obstacles(dag);
    REQUIRE(why.size() == 2);
    CAPTURE(why[0]);
    CAPTURE(why[1]);
    CHECK(mentions(why[0] + why[1], "extern stage 'shift_a"));
    CHECK(mentions(why[0] + why[1], "extern stage 'shift_b"));
    CHECK(mentions(why[0], "ansor_test_defined_elsewhere"));
    CHECK_THROWS_AS(ForkMeasurer(dag, ansor_test::correctness_options()), MeasurementUnavailable);

    AutoscheduleResult r = autoschedule(functions({g}), cpu, 2, small_budget());
    CHECK_FALSE(r.measured);
    CHECK(r.trials == 0);
    CHECK(mentions(r.not_measured_because, "shift_a"));
    CHECK(mentions(r.schedule_source, "not measured"));
}

TEST_CASE("hard pipelines: a scalar Param without an estimate is scheduled without measuring") {
    auto make = [](bool estimated) {
        Param<int> offset("offset");
        if (estimated) offset.set_estimate(1);
        ImageParam input(UInt(8), 2, "param_in");
        input.set_estimates({{0, 200}, {0, 100}});
        Var x("x"), y("y");
        Func f("f"), g("g");
        f(x, y) = input(x, y) * 2;
        g(x, y) = f(x + offset, y) + f(x - offset, y);
        g.set_estimates({{0, 200}, {0, 100}});
        return g;
    };
    Func bare = make(false);
    AutoscheduleResult r = autoschedule(functions({bare}), cpu, 2, small_budget());
    CHECK_FALSE(r.measured);
    CHECK(mentions(r.not_measured_because, "scalar Param 'offset' has no estimate"));

    Func estimated = make(true);
    AutoscheduleResult m = autoschedule(functions({estimated}), cpu, 2, small_budget());
    CHECK(m.measured);
}

TEST_CASE("hard pipelines: a Tuple output with estimates on its output buffers is measured") {
    Param<int> offset("tuple_offset");
    offset.set_estimate(1);
    ImageParam input(UInt(8), 2, "tuple_in");
    input.set_estimates({{0, 160}, {0, 90}});
    Var x("x"), y("y");
    Func f("f"), out("pair_out");
    f(x, y) = input(x, y) * 2;
    out(x, y) = Tuple(f(x + offset, y), f(x - offset, y));
    for (auto &b : out.output_buffers()) b.set_estimates({{0, 150}, {0, 90}});
    PipelineDAG dag(functions({out}), 2);
    const Node &n = dag.node(*dag.index_of(out.name()));
    REQUIRE(n.region.size() == 2);
    CHECK(n.region[0].extent == 150);
    ForkMeasurer measurer(dag, ansor_test::correctness_options());
    CHECK(measurer.reference().ok);
    AutoscheduleResult r = autoschedule(functions({out}), cpu, 2, small_budget());
    CHECK(r.measured);
}

TEST_CASE("hard pipelines: inputs are sized by what is read, embedded Buffers included") {
    // Halide's multi_output: outputs estimated over the whole input, a
    // stencil reading one past it.
    const int w = 200, h = 150;
    Buffer<uint16_t> input({w, h}, "embedded_in");
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) input(x, y) = (uint16_t)((x * 7 + y * 13) & 0xfff);
    Var x("x"), y("y");
    Func f("f"), g("g"), hh("h");
    f(x, y) = input(x, y) * input(x, y);
    g(x, y) = (f(x, y) + f(x + 1, y)) / 2;
    hh(x, y) = (f(x, y) + f(x, y + 1)) / 2;
    g.set_estimate(x, 0, w).set_estimate(y, 0, h);
    hh.set_estimate(x, 0, w).set_estimate(y, 0, h);
    PipelineDAG dag(functions({hh, g}), 2);
    REQUIRE(dag.embedded_buffers().size() == 1);
    const EmbeddedBuffer &e = dag.embedded_buffers()[0];
    CHECK(e.region[0].extent == w + 1);
    CHECK(e.region[1].extent == h + 1);
    CHECK_FALSE(e.covers_region());
    std::map<std::string, Buffer<>> stand_ins = embedded_stand_ins(dag);
    REQUIRE(stand_ins.count(input.name()));
    Buffer<uint16_t> stand_in(stand_ins[input.name()]);
    CHECK(stand_in.width() == w + 1);
    CHECK(stand_in(5, 9) == input(5, 9));  // the original's data where it has any

    ForkMeasurer measurer(dag, ansor_test::correctness_options());
    CHECK(measurer.reference().ok);
    AutoscheduleResult r = autoschedule(functions({hh, g}), cpu, 2, small_budget());
    CHECK(r.measured);
    // The user's own Funcs still read the user's Buffer.
    Pipeline p({hh, g});
    Buffer<uint16_t> out1(w - 1, h - 1), out2(w - 1, h - 1);
    p.realize({out1, out2}, cpu);
    CHECK(out2(3, 4) == (uint16_t)((input(3, 4) * input(3, 4) + input(4, 4) * input(4, 4)) / 2));

    SUBCASE("an ImageParam's region covers every read") {
        ImageParam in(Float(32), 1, "read_past");
        in.dim(0).set_estimate(0, 64);
        Func s("s");
        s(x) = in(x - 2) + in(x + 3);
        s.set_estimate(x, 0, 64);
        PipelineDAG d(functions({s}), 2);
        REQUIRE(d.inputs().size() == 1);
        CHECK(d.inputs()[0].region[0].min == -2);
        CHECK(d.inputs()[0].region[0].extent == 69);
    }
}

TEST_CASE("hard pipelines: a reference past Halide's buffer limit inlines what it cannot allocate") {
    ImageParam in(Float(32), 1, "sparse_in");
    in.dim(0).set_estimate(0, 1 << 20);
    Var x("x"), y("y");
    Func big("big"), out("sampled");
    big(x, y) = in(x) * 2.f + cast<float>(y);
    out(x, y) = big(x * 4096, y * 4096) + 1.f;
    out.set_estimate(x, 0, 64).set_estimate(y, 0, 64);
    PipelineDAG dag(functions({out}), 2);
    const int big_index = *dag.index_of(big.name());
    CHECK(root_buffer_bytes(dag.node(big_index)) > kLargestBufferBytes);
    CHECK(reference_inlined(dag)[big_index]);
    CHECK(measurement_obstacles(dag).empty());
    ForkMeasurer measurer(dag, ansor_test::correctness_options());
    CHECK_MESSAGE(measurer.reference().ok, measurer.reference().error);

    SUBCASE("one the reference cannot inline is named, and not measured") {
        Func acc("accumulated"), out2("sampled2");
        acc(x, y) = cast<float>(x + y);
        acc(x, y) += in(x);
        out2(x, y) = acc(x * 4096, y * 4096);
        out2.set_estimate(x, 0, 64).set_estimate(y, 0, 64);
        PipelineDAG d(functions({out2}), 2);
        std::vector<std::string> why = measurement_obstacles(d);
        REQUIRE(why.size() == 1);
        CHECK(mentions(why[0], "Func 'accumulated"));
        CHECK(mentions(why[0], "2^31"));
    }
}

TEST_CASE("pinned bounds: an output constraint wins over its estimate, with a warning naming both") {
    ImageParam in(Float(32), 2, "conv_in");
    in.dim(0).set_estimate(0, 128).dim(1).set_estimate(0, 32);
    Var x("x"), y("y");
    Func relu("relu");
    relu(x, y) = max(in(x, y) * 2.f - 0.5f, 0.f);
    relu.set_estimate(x, 0, 100).set_estimate(y, 0, 32);  // mislabelled
    relu.output_buffer().dim(0).set_bounds(0, 128).set_stride(1);
    PipelineDAG dag(functions({relu}), 2);
    const Node &n = dag.node(*dag.index_of(relu.name()));
    CHECK(n.region[0].min == 0);
    CHECK(n.region[0].extent == 128);
    REQUIRE(dag.warnings().size() == 1);
    CHECK(mentions(dag.warnings()[0], "relu"));
    CHECK(mentions(dag.warnings()[0], "[0, 128)"));
    CHECK(mentions(dag.warnings()[0], "[0, 100)"));
    // The loops the features and the search see follow the constraint.
    CHECK(n.stages[0].space_points() == 128 * 32);

    ForkMeasurer measurer(dag, ansor_test::correctness_options());
    CHECK_MESSAGE(measurer.reference().ok, measurer.reference().error);
    AutoscheduleResult r = autoschedule(functions({relu}), cpu, 2, small_budget());
    CHECK(r.measured);
    CHECK(r.warnings.size() == 1);
}

TEST_CASE("pinned bounds: input constraints size and lay out the measurement's inputs") {
    ImageParam in(UInt(8), 3, "interleaved");
    in.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, 48);
    in.dim(2).set_bounds(0, 3).set_stride(1);  // interleaved RGB, as a camera delivers it
    in.dim(0).set_stride(3);
    in.dim(1).set_min(0);
    Var x("x"), y("y"), c("c");
    Func grey("grey");
    grey(x, y) = cast<uint8_t>((cast<uint16_t>(in(x, y, 0)) + in(x, y, 1) + in(x, y, 2)) / 3);
    grey.set_estimate(x, 0, 64).set_estimate(y, 0, 48);
    PipelineDAG dag(functions({grey}), 2);
    REQUIRE(dag.inputs().size() == 1);
    const InputInfo &info = dag.inputs()[0];
    CHECK(info.region[2].extent == 3);
    CHECK(info.constraints.pins_stride());
    CHECK(dag.warnings().empty());  // dim 2 had no estimate to disagree with

    Buffer<> b = make_measurement_buffer(info.type, info.region, info.constraints);
    CHECK(b.dim(0).stride() == 3);
    CHECK(b.dim(2).stride() == 1);
    CHECK(b.dim(1).stride() == 3 * 64);
    CHECK_FALSE(is_dense(b));

    ForkMeasurer measurer(dag, ansor_test::correctness_options());
    CHECK_MESSAGE(measurer.reference().ok, measurer.reference().error);
    State inline_all(dag);
    std::vector<MeasureResult> results = measurer.measure({inline_all});
    CHECK_MESSAGE(results[0].ok, results[0].error);

    SUBCASE("an input's set_bounds overrides its estimate") {
        ImageParam p(Float(32), 1, "pinned_in");
        // set_bounds copies constant bounds into the estimate; an estimate
        // set afterwards (a generator's set_estimates) can disagree.
        p.dim(0).set_bounds(0, 80).set_estimate(0, 50);
        Func s("s");
        s(x) = p(x) * 3.f;
        s.set_estimate(x, 0, 80);
        PipelineDAG d(functions({s}), 2);
        CHECK(d.inputs()[0].region[0].extent == 80);
        REQUIRE(d.warnings().size() == 1);
        CHECK(mentions(d.warnings()[0], "pinned_in"));
    }
}

TEST_CASE("pinned bounds: an output pinned to a strided layout is measured and compared") {
    ImageParam in(Float(32), 3, "planar");
    in.set_estimates({{0, 32}, {0, 24}, {0, 3}});
    Var x("x"), y("y"), c("c");
    Func out("interleaved_out");
    out(x, y, c) = in(x, y, c) * 0.5f + 1.f;
    out.set_estimates({{0, 32}, {0, 24}, {0, 3}});
    out.output_buffer().dim(0).set_stride(3).dim(2).set_stride(1);
    PipelineDAG dag(functions({out}), 2);
    ForkMeasurer measurer(dag, ansor_test::correctness_options());
    CHECK_MESSAGE(measurer.reference().ok, measurer.reference().error);
    State inline_all(dag);
    std::vector<MeasureResult> results = measurer.measure({inline_all});
    CHECK_MESSAGE(results[0].ok, results[0].error);
}
