// depthwise_bias_act: depthwise 2-D convolution (channel multiplier 1) +
// per-channel bias + activation: MobileNet-V2's depthwise layers.
//   input  (N, H, W, C)    Halide (C, W, H, N)
//   weight (k, k, C)       Halide (C, kw, kh)
//   bias   (C)             Halide (C)
//   output (N, OH, OW, C)  Halide (C, OW, OH, N),  OH = (H + 2p - k)/s + 1
//   output = act(depthwise_conv + bias[c]);  act: 0 none, 1 relu, 6 relu6
#include "layer_common.h"

using namespace Halide;

namespace {

class DepthwiseBiasAct : public Generator<DepthwiseBiasAct> {
public:
    GeneratorParam<int> batch{"N", 1};
    GeneratorParam<int> height{"H", 112};
    GeneratorParam<int> width{"W", 112};
    GeneratorParam<int> channels{"C", 32};
    GeneratorParam<int> kernel{"k", 3};
    GeneratorParam<int> stride{"s", 1};
    GeneratorParam<int> pad{"p", 1};
    GeneratorParam<int> act{"act", 6};

    Input<Buffer<float>> input{"input", 4};
    Input<Buffer<float>> weight{"weight", 3};
    Input<Buffer<float>> bias{"bias", 1};
    Output<Buffer<float>> output{"output", 4};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        const int K = kernel, S = stride, P = pad;
        const int OH = ansor_ops::window_out(height, K, S, P);
        const int OW = ansor_ops::window_out(width, K, S, P);

        Var c("c"), x("x"), y("y"), n("n");
        Func padded = ansor_ops::zero_pad(input, {0, width, height, 0}, P > 0);
        RDom r(0, K, 0, K, "r");  // kw, kh

        Func conv("conv");
        conv(c, x, y, n) = 0.f;
        conv(c, x, y, n) += padded(c, x * S + r.x - P, y * S + r.y - P, n) * weight(c, r.x, r.y);
        output(c, x, y, n) = ansor_layers::activate(conv(c, x, y, n) + bias(c), act);

        input.set_estimates(ansor_ops::extents({channels, width, height, batch}));
        weight.set_estimates(ansor_ops::extents({channels, K, K}));
        bias.set_estimates(ansor_ops::extents({channels}));
        output.set_estimates(ansor_ops::extents({channels, OW, OH, batch}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(DepthwiseBiasAct, depthwise_bias_act)
