// The second look with strict_float (strict_float_check.h): a schedule whose
// output differs from the reference only because LLVM contracted a multiply
// and a subtraction into an FMA passes; a wrong output still fails.
#include "measure/fresh_process_measurer.h"
#include "measure/measurer.h"
#include "measure/output_check.h"
#include "measure/pipeline_runner.h"
#include "measure/strict_float_check.h"
#include "state/state.h"
#include "state/steps.h"
#include "measure_test_support.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

#include <cstring>

using namespace ansor;
using namespace Halide;

namespace {

// Two Funcs that store the same product, and their difference: 0 with
// both at root. Where `scaled` is inlined, LLVM contracts its product and
// the subtraction of the stored `same` into an FMA, which yields the
// product's rounding error instead. Both are the same program.
struct ProductResidual {
    Func scaled{"scaled"}, same{"same"}, residual{"residual"};
    ProductResidual() {
        ImageParam in(Float(32), 1, "values");
        in.dim(0).set_estimate(0, 256);
        Var x("x");
        scaled(x) = in(x) * 0.1f;
        same(x) = in(x) * 0.1f;
        residual(x) = scaled(x) - same(x);
        residual.set_estimate(x, 0, 256);
    }
    // The contracting schedule: `same` at root, `scaled` inlined.
    Pipeline contracting() {
        same.compute_root();
        return Pipeline(residual);
    }
};

std::vector<char> bytes_of(const Buffer<> &b) {
    const char *p = reinterpret_cast<const char *>(b.data());
    return std::vector<char>(p, p + b.size_in_bytes());
}

}  // namespace

TEST_CASE("strict_float: an output that differs by FMA contraction alone passes; a wrong one does not") {
    const Target cpu = ansor_test::cpu_target();
    REQUIRE(cpu.has_feature(Target::FMA));
    ProductResidual p;
    PipelineDAG dag({p.residual.function()}, 2);
    PipelineRunner reference(dag, nullptr, cpu);
    reference.compile();
    reference.run();
    const Buffer<> want = reference.outputs()[0].copy();
    const std::vector<Buffer<>> spread = rounding_spread(reference);
    const std::vector<Buffer<>> strict = strict_float_outputs(reference);
    REQUIRE(strict.size() == 1);

    PipelineRunner inlined(dag, p.contracting(), cpu);
    inlined.compile();
    inlined.run();
    const OutputRule rule = output_rules(dag, 1e-3)[0];
    const OutputComparison plain = compare_output(inlined.outputs()[0], want.data(), rule, spread[0].data());
    // The reference holds zeros where the contracted program holds rounding errors.
    REQUIRE_FALSE(plain.ok());
    std::vector<char> strict_want = bytes_of(strict[0]);
    CHECK(strict_float_mismatch(inlined, 1e-3, strict_want.data(), (const char *)spread[0].data()) == "");
    // The same, with the strict_float reference computed only when asked.
    CHECK(strict_float_mismatch(inlined, dag, 1e-3, (const char *)spread[0].data()) == "");

    // A reference that differs on one element by more than rounding: still a mismatch.
    float one;
    std::memcpy(&one, strict_want.data() + 7 * sizeof(float), sizeof(float));
    one += 1.f;
    std::memcpy(strict_want.data() + 7 * sizeof(float), &one, sizeof(float));
    const std::string why = strict_float_mismatch(inlined, 1e-3, strict_want.data(), (const char *)spread[0].data());
    CHECK(why.find("compiled with strict_float too") != std::string::npos);
}

TEST_CASE("strict_float: both measurers accept a candidate that differs by FMA contraction alone") {
    ProductResidual p;
    PipelineDAG dag({p.residual.function()}, 2);
    {
        FreshProcessMeasurer measurer(dag, ansor_test::correctness_options());
        const std::vector<MeasureResult> r = measurer.measure_pipelines({p.contracting()});
        REQUIRE(r.size() == 1);
        CHECK_MESSAGE(r[0].ok, r[0].error);
    }
    {
        ForkMeasurer measurer(dag, ansor_test::correctness_options());
        State inlined(dag);
        inlined.add(std::make_shared<ComputeLocationStep>(ansor_test::resolve(dag, "scaled"),
                                                          Location{LocationKind::Inline, "", 0, ""}));
        const std::vector<MeasureResult> r = measurer.measure({inlined});
        REQUIRE(r.size() == 1);
        CHECK_MESSAGE(r[0].ok, r[0].error);
    }
}
