// conv_layer: 2-D convolution, batch norm (inference: a per-channel scale
// and shift), ReLU.
//   input    (N, H, W, CI)    Halide (CI, W, H, N)
//   weight   (k, k, CI, CO)   Halide (CO, CI, kw, kh)
//   bn_scale (CO)             Halide (CO)
//   bn_shift (CO)             Halide (CO)
//   output   (N, OH, OW, CO)  Halide (CO, OW, OH, N),  OH = (H + 2p - k)/s + 1
//   output = max(conv * bn_scale[co] + bn_shift[co], 0)
#include "common.h"

using namespace Halide;

namespace {

class ConvLayer : public Generator<ConvLayer> {
public:
    GeneratorParam<int> batch{"N", 1};
    GeneratorParam<int> height{"H", 224};
    GeneratorParam<int> width{"W", 224};
    GeneratorParam<int> in_ch{"CI", 3};
    GeneratorParam<int> out_ch{"CO", 64};
    GeneratorParam<int> kernel{"k", 7};
    GeneratorParam<int> stride{"s", 2};
    GeneratorParam<int> pad{"p", 3};

    Input<Buffer<float>> input{"input", 4};
    Input<Buffer<float>> weight{"weight", 4};
    Input<Buffer<float>> bn_scale{"bn_scale", 1};
    Input<Buffer<float>> bn_shift{"bn_shift", 1};
    Output<Buffer<float>> output{"output", 4};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        const int K = kernel, S = stride, P = pad;
        const int OH = ansor_ops::window_out(height, K, S, P);
        const int OW = ansor_ops::window_out(width, K, S, P);

        Var co("co"), x("x"), y("y"), n("n");
        Func padded = ansor_ops::zero_pad(input, {0, width, height, 0}, P > 0);
        RDom r(0, in_ch, 0, K, 0, K, "r");  // ci, kw, kh

        Func conv("conv");
        conv(co, x, y, n) = 0.f;
        conv(co, x, y, n) += padded(r.x, x * S + r.y - P, y * S + r.z - P, n) *
                             weight(co, r.x, r.y, r.z);
        output(co, x, y, n) = max(conv(co, x, y, n) * bn_scale(co) + bn_shift(co), 0.f);

        input.set_estimates(ansor_ops::extents({in_ch, width, height, batch}));
        weight.set_estimates(ansor_ops::extents({out_ch, in_ch, K, K}));
        bn_scale.set_estimates(ansor_ops::extents({out_ch}));
        bn_shift.set_estimates(ansor_ops::extents({out_ch}));
        output.set_estimates(ansor_ops::extents({out_ch, OW, OH, batch}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(ConvLayer, conv_layer)
