// conv2d_bias_act: 2-D convolution + per-channel bias (a folded batch norm),
// optionally + a residual tensor, then an activation: ResNet's and
// MobileNet-V2's convolution layers.
//   input    (N, H, W, CI)    Halide (CI, W, H, N)
//   weight   (k, k, CI, CO)   Halide (CO, CI, kw, kh)
//   bias     (CO)             Halide (CO)
//   shortcut (N, OH, OW, CO)  Halide (CO, OW, OH, N)   the residual; read only when residual=1
//   output   (N, OH, OW, CO)  Halide (CO, OW, OH, N),  OH = (H + 2p - k)/s + 1
//   output = act(conv + bias[co] (+ shortcut))
// act: 0 none, 1 relu, 6 relu6 (2 gelu also accepted).
#include "layer_common.h"

using namespace Halide;

namespace {

class Conv2DBiasAct : public Generator<Conv2DBiasAct> {
public:
    GeneratorParam<int> batch{"N", 1};
    GeneratorParam<int> height{"H", 56};
    GeneratorParam<int> width{"W", 56};
    GeneratorParam<int> in_ch{"CI", 64};
    GeneratorParam<int> out_ch{"CO", 64};
    GeneratorParam<int> kernel{"k", 3};
    GeneratorParam<int> stride{"s", 1};
    GeneratorParam<int> pad{"p", 1};
    GeneratorParam<int> act{"act", 1};
    GeneratorParam<int> residual_add{"residual", 0};

    Input<Buffer<float>> input{"input", 4};
    Input<Buffer<float>> weight{"weight", 4};
    Input<Buffer<float>> bias{"bias", 1};
    // Always an argument (Halide 14 generators cannot make Inputs optional);
    // the pipeline reads it only with residual=1.
    Input<Buffer<float>> shortcut{"shortcut", 4};
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
        conv(co, x, y, n) += padded(r.x, x * S + r.y - P, y * S + r.z - P, n) * weight(co, r.x, r.y, r.z);
        Expr v = conv(co, x, y, n) + bias(co);
        if (residual_add) v += shortcut(co, x, y, n);
        output(co, x, y, n) = ansor_layers::activate(v, act);

        input.set_estimates(ansor_ops::extents({in_ch, width, height, batch}));
        weight.set_estimates(ansor_ops::extents({out_ch, in_ch, K, K}));
        bias.set_estimates(ansor_ops::extents({out_ch}));
        shortcut.set_estimates(ansor_ops::extents({out_ch, OW, OH, batch}));
        output.set_estimates(ansor_ops::extents({out_ch, OW, OH, batch}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Conv2DBiasAct, conv2d_bias_act)
