// depthwise_separable_conv: a MobileNet block, channels innermost (NHWC):
// a 3x3 depthwise convolution (zero padding 1) with bias and ReLU, then a
// 1x1 pointwise convolution with bias and ReLU.
//   input     (N, H, W, CI)  Halide (CI, W, H, N)
//   dw_weight (3, 3, CI)     Halide (CI, kx, ky)
//   dw_bias   (CI)           Halide (CI)
//   pw_weight (CI, CO)       Halide (CO, CI)
//   pw_bias   (CO)           Halide (CO)
//   output    (N, H, W, CO)  Halide (CO, W, H, N)
// The depthwise stage is memory-bound (9 multiply-adds per value loaded),
// the pointwise one a small matrix product.
// Expert schedule: (row, image) pairs in parallel; the depthwise result of
// one output row computed per row, vectorised over channels (it never goes
// to memory beyond L1); the pointwise stage in register tiles of 32 output
// channels x 8 pixels accumulating over CI.
#include "app_common.h"

using namespace Halide;

namespace {

class DepthwiseSeparableConv : public Generator<DepthwiseSeparableConv> {
public:
    GeneratorParam<bool> expert{"expert", false};
    GeneratorParam<int> batch{"N", 4};
    GeneratorParam<int> height{"H", 112};
    GeneratorParam<int> width{"W", 112};
    GeneratorParam<int> in_ch{"CI", 32};
    GeneratorParam<int> out_ch{"CO", 64};

    Input<Buffer<float>> input{"input", 4};
    Input<Buffer<float>> dw_weight{"dw_weight", 3};
    Input<Buffer<float>> dw_bias{"dw_bias", 1};
    Input<Buffer<float>> pw_weight{"pw_weight", 2};
    Input<Buffer<float>> pw_bias{"pw_bias", 1};
    Output<Buffer<float>> output{"output", 4};

    void generate() {
        Func padded = BoundaryConditions::constant_exterior(input, 0.f,
                                                            {Range(), Range(0, width), Range(0, height), Range()});
        k = RDom(0, 3, 0, 3, "k");
        depthwise(ci, x, y, n) = dw_bias(ci);
        depthwise(ci, x, y, n) += dw_weight(ci, k.x, k.y) * padded(ci, x + k.x - 1, y + k.y - 1, n);
        dw_relu(ci, x, y, n) = max(depthwise(ci, x, y, n), 0.f);

        r = RDom(0, in_ch, "r");
        pointwise(co, x, y, n) = pw_bias(co);
        pointwise(co, x, y, n) += pw_weight(co, r) * dw_relu(r, x, y, n);
        output(co, x, y, n) = max(pointwise(co, x, y, n), 0.f);

        input.set_estimates(ansor_apps::estimate_extents({in_ch, width, height, batch}));
        dw_weight.set_estimates(ansor_apps::estimate_extents({in_ch, 3, 3}));
        dw_bias.set_estimates(ansor_apps::estimate_extents({in_ch}));
        pw_weight.set_estimates(ansor_apps::estimate_extents({out_ch, in_ch}));
        pw_bias.set_estimates(ansor_apps::estimate_extents({out_ch}));
        output.set_estimates(ansor_apps::estimate_extents({out_ch, width, height, batch}));
    }

    void schedule() {
        if (!expert) return;
        const int lanes = ansor_apps::kFloatLanes;
        Var coo("coo"), coi("coi"), xo("xo"), xi("xi"), row("row");
        output.split(co, coo, coi, 2 * lanes)
            .split(x, xo, xi, 8)
            .reorder(coi, xi, coo, xo, y, n)
            .fuse(y, n, row)
            .parallel(row)
            .vectorize(coi, lanes)
            .unroll(coi)
            .unroll(xi);
        pointwise.compute_at(output, coo).vectorize(co, lanes).unroll(co).unroll(x);
        pointwise.update().reorder(co, x, r).vectorize(co, lanes).unroll(co).unroll(x);
        // The depthwise row: channels innermost, the 3x3 taps unrolled.
        dw_relu.compute_at(output, row).vectorize(ci, lanes);
        depthwise.compute_at(dw_relu, x).vectorize(ci, lanes);
        // GuardWithIf: an update's default (RoundUp) would read past CI
        // when it is not a multiple of 16.
        depthwise.update()
            .reorder(ci, k.x, k.y)
            .vectorize(ci, lanes, TailStrategy::GuardWithIf)
            .unroll(k.x)
            .unroll(k.y);
    }

private:
    Var ci{"ci"}, co{"co"}, x{"x"}, y{"y"}, n{"n"};
    Func depthwise{"depthwise"}, dw_relu{"dw_relu"}, pointwise{"pointwise"};
    RDom r, k;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(DepthwiseSeparableConv, depthwise_separable_conv)
