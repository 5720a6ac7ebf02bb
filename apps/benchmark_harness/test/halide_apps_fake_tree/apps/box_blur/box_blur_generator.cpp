// A tiny app for the test of scripts/halide_apps_benchmark.py
// (check_halide_apps_mode.py): a 3x3 box blur of a float image, with
// estimates for the autoschedulers and a simple schedule of its own for
// auto_schedule=false, as Halide's apps have.
#include "Halide.h"

namespace {

using namespace Halide;

class BoxBlur : public Generator<BoxBlur> {
public:
    Input<Buffer<float, 2>> input{"input"};
    Output<Buffer<float, 2>> output{"output"};

    void generate() {
        Var x("x"), y("y");
        Func clamped = BoundaryConditions::repeat_edge(input);
        Func blur_x("blur_x");
        blur_x(x, y) = (clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y)) / 3.0f;
        output(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3.0f;

        input.set_estimates({{0, 320}, {0, 240}});
        output.set_estimates({{0, 320}, {0, 240}});

        if (!auto_schedule) {
            Var yo("yo"), yi("yi");
            output.split(y, yo, yi, 16).parallel(yo).vectorize(x, 8);
            blur_x.compute_at(output, yi).vectorize(x, 8);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(BoxBlur, box_blur)
