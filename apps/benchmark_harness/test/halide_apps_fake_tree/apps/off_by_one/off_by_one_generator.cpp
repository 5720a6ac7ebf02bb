// A tiny app for the test of scripts/halide_apps_benchmark.py
// (check_halide_apps_mode.py) that computes a different result when
// autoscheduled: the average of two neighbours of a 16-bit image, plus 1
// when auto_schedule=true. The benchmark must report its autoscheduled
// variants as WRONG (every element differs from the hand schedule's).
#include "Halide.h"

namespace {

using namespace Halide;

class OffByOne : public Generator<OffByOne> {
public:
    Input<Buffer<uint16_t, 2>> input{"input"};
    Output<Buffer<uint16_t, 2>> output{"output"};

    void generate() {
        Var x("x"), y("y");
        Func clamped = BoundaryConditions::repeat_edge(input);
        Func avg("avg");
        avg(x, y) = cast<uint16_t>((cast<uint32_t>(clamped(x, y)) + clamped(x + 1, y)) / 2);
        Expr wrong = cast<uint16_t>(auto_schedule ? 1 : 0);
        output(x, y) = avg(x, y) + wrong;

        input.set_estimates({{0, 320}, {0, 240}});
        output.set_estimates({{0, 320}, {0, 240}});

        if (!auto_schedule) {
            output.vectorize(x, 16).parallel(y);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(OffByOne, off_by_one)
