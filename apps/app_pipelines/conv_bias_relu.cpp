// conv_bias_relu: a 3x3 convolution layer (stride 1, zero padding 1) with a
// per-channel bias and ReLU, channels innermost (NHWC).
//   input  (N, H, W, CI)   Halide (CI, W, H, N)
//   weight (3, 3, CI, CO)  Halide (CO, CI, kx, ky)
//   bias   (CO)            Halide (CO)
//   output (N, H, W, CO)   Halide (CO, W, H, N)
//   output = max(bias[co] + sum_{ci,kx,ky} input(ci, x+kx-1, y+ky-1, n) * weight(co, ci, kx, ky), 0)
// Expert schedule: (row, image) pairs in parallel; the zero-padded input is
// materialised per output row (no selects in the inner loop); the register
// tile is 32 output channels (two vectors) x 8 pixels, accumulating over the
// whole reduction in registers.
#include "app_common.h"

using namespace Halide;

namespace {

class ConvBiasRelu : public Generator<ConvBiasRelu> {
public:
    GeneratorParam<bool> expert{"expert", false};
    GeneratorParam<int> batch{"N", 4};
    GeneratorParam<int> height{"H", 56};
    GeneratorParam<int> width{"W", 56};
    GeneratorParam<int> in_ch{"CI", 64};
    GeneratorParam<int> out_ch{"CO", 64};

    Input<Buffer<float>> input{"input", 4};
    Input<Buffer<float>> weight{"weight", 4};
    Input<Buffer<float>> bias{"bias", 1};
    Output<Buffer<float>> output{"output", 4};

    void generate() {
        // Zero outside the image in x and y only; channels and batch stay unbounded.
        padded = BoundaryConditions::constant_exterior(input, 0.f,
                                                       {Range(), Range(0, width), Range(0, height), Range()});
        r = RDom(0, in_ch, 0, 3, 0, 3, "r");  // ci, kx, ky
        conv(co, x, y, n) = bias(co);
        conv(co, x, y, n) += weight(co, r.x, r.y, r.z) * padded(r.x, x + r.y - 1, y + r.z - 1, n);
        output(co, x, y, n) = max(conv(co, x, y, n), 0.f);

        input.set_estimates(ansor_apps::estimate_extents({in_ch, width, height, batch}));
        weight.set_estimates(ansor_apps::estimate_extents({out_ch, in_ch, 3, 3}));
        bias.set_estimates(ansor_apps::estimate_extents({out_ch}));
        output.set_estimates(ansor_apps::estimate_extents({out_ch, width, height, batch}));
    }

    void schedule() {
        if (!expert) return;
        const int lanes = ansor_apps::kFloatLanes;
        const int tile_co = 2 * lanes, tile_x = 8;
        Var coo("coo"), coi("coi"), xo("xo"), xi("xi"), row("row");
        output.split(co, coo, coi, tile_co)
            .split(x, xo, xi, tile_x)
            .reorder(coi, xi, coo, xo, y, n)
            .fuse(y, n, row)
            .parallel(row)
            .vectorize(coi, lanes)
            .unroll(coi)
            .unroll(xi);
        conv.compute_at(output, coo).vectorize(co, lanes).unroll(co).unroll(x);
        conv.update().reorder(co, x, r.x, r.y, r.z).vectorize(co, lanes).unroll(co).unroll(x);
        padded.compute_at(output, row).vectorize(padded.args()[0], lanes);
    }

private:
    Var co{"co"}, x{"x"}, y{"y"}, n{"n"};
    Func padded{"padded"}, conv{"conv"};
    RDom r;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(ConvBiasRelu, conv_bias_relu)
