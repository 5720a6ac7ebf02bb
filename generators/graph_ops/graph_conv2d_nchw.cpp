// graph_conv2d_nchw: the layer conv2d_bias_act computes (groups 1, square
// kernel, stride and padding, + bias, + an optional residual, then an
// activation) on NCHW activations, the graph optimiser's other data layout
// for a convolution (docs/taso.md, "Layouts"). Weights keep the graph's
// [KH, KW, CI, CO] layout.
//   input    (N, CI, H, W)    Halide (W, H, CI, N)
//   weight   (k, k, CI, CO)   Halide (CO, CI, kw, kh)
//   bias     (CO)             Halide (CO)
//   shortcut (N, CO, OH, OW)  Halide (OW, OH, CO, N)   read only when residual=1
//   output   (N, CO, OH, OW)  Halide (OW, OH, CO, N),  OH = (H + 2p - k)/s + 1
//   output = act(conv + bias[co] (+ shortcut));  act: 0 none, 1 relu, 2 gelu, 6 relu6
#include "../layers/layer_common.h"

using namespace Halide;

namespace {

class GraphConv2DNCHW : public Generator<GraphConv2DNCHW> {
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
    // Always an argument (Halide 14 generators cannot make Inputs optional).
    Input<Buffer<float>> shortcut{"shortcut", 4};
    Output<Buffer<float>> output{"output", 4};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        const int K = kernel, S = stride, P = pad;
        const int OH = ansor_ops::window_out(height, K, S, P);
        const int OW = ansor_ops::window_out(width, K, S, P);

        Var x("x"), y("y"), co("co"), n("n");
        Func padded = ansor_ops::zero_pad(input, {width, height, 0, 0}, P > 0);
        RDom r(0, in_ch, 0, K, 0, K, "r");  // ci, kw, kh

        Func conv("conv");
        conv(x, y, co, n) = 0.f;
        conv(x, y, co, n) += padded(x * S + r.y - P, y * S + r.z - P, r.x, n) * weight(co, r.x, r.y, r.z);
        Expr v = conv(x, y, co, n) + bias(co);
        if (residual_add) v += shortcut(x, y, co, n);
        output(x, y, co, n) = ansor_layers::activate(v, act);

        input.set_estimates(ansor_ops::extents({width, height, in_ch, batch}));
        weight.set_estimates(ansor_ops::extents({out_ch, in_ch, K, K}));
        bias.set_estimates(ansor_ops::extents({out_ch}));
        shortcut.set_estimates(ansor_ops::extents({OW, OH, out_ch, batch}));
        output.set_estimates(ansor_ops::extents({OW, OH, out_ch, batch}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(GraphConv2DNCHW, graph_conv2d_nchw)
