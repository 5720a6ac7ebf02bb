// Reading what a scheduled pipeline reads of its inputs off its lowered code
// (what the zero-shot compile check refuses a finalist for): a split shifted
// below a region that a boundary clamp narrows reaches past the input's
// first column. The search's own lowering gives such a split a guarded tail
// (SplitStep::lower), so the schedule here is written in Halide directly.
#include "measure/lowered_input_reads.h"
#include "measure_test_support.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

using namespace ansor;
using namespace Halide;

namespace {

constexpr int kWidth = 256;

// A Func read through a clamp to the image by a 9-wide stencil: at the
// image's left edge the clamp leaves a strip of `wide` 36 of its 40 columns.
struct ClampedStencil {
    ImageParam in{UInt(16), 2, "cu_in"};
    Var x{"x"}, y{"y"};
    Func wide{"cu_wide"}, out{"cu_out"};
    ClampedStencil() {
        wide(x, y) = in(x, y) * 3;
        out(x, y) = wide(clamp(x - 4, 0, kWidth - 1), y) + wide(clamp(x + 4, 0, kWidth - 1), y);
        out.set_estimate(x, 0, kWidth).set_estimate(y, 0, 8);
        in.set_estimates({{0, kWidth}, {0, 8}});
    }
    std::vector<Internal::Function> functions() const { return {out.function()}; }
};

std::optional<InputOverRead> over_read_of(ClampedStencil &p, int wide_split) {
    const PipelineDAG dag(p.functions(), 2);
    Var xo("xo"), xi("xi"), wo("wo"), wi("wi");
    p.out.split(p.x, xo, xi, 32);
    p.wide.compute_at(p.out, xo).split(p.x, wo, wi, wide_split, TailStrategy::ShiftInwards);
    const Module module = Pipeline(p.out).compile_to_module(Pipeline(p.out).infer_arguments(), "f",
                                                            ansor_test::cpu_target());
    return find_input_over_read(module, "f", dag);
}

}  // namespace

TEST_CASE("lowered reads: a split shifted below a clamped region reads before the input's first column") {
    ClampedStencil shifted;
    const std::optional<InputOverRead> over = over_read_of(shifted, 40);
    REQUIRE(over);
    CHECK(over->input == "cu_in");
    CHECK(over->dim == 0);
    CHECK(over->min < 0);
    CHECK(over->allowed_min == 0);
    CHECK(over->allowed_extent == kWidth);
    CHECK(over->describe().find("reads input cu_in over [" + std::to_string(over->min)) == 0);
    // A split the narrowest strip still holds reads nothing beyond.
    ClampedStencil narrow;
    CHECK_FALSE(over_read_of(narrow, 32));
}
