// graph_conv2d: the general 2-D convolution of the graph executor (graph/):
// groups, dilation, rectangular kernels, strides and padding, + bias +
// activation, for the convolutions conv2d_bias_act and depthwise_bias_act
// do not cover (ResNeXt's grouped, Inception's 1x7 / 7x1 ones).
//   input  (N, H, W, CI)           Halide (CI, W, H, N)
//   weight (KH, KW, CI/G, CO)      Halide (CO, CI/G, kw, kh)
//   bias   (CO)                    Halide (CO)
//   output (N, OH, OW, CO)         Halide (CO, OW, OH, N),  OH = (H + 2 PH - DH (KH - 1) - 1) / SH + 1
//   output channel co reads input channels g*CI/G .. (g+1)*CI/G - 1, g = co / (CO/G)
//   output = act(conv + bias[co]);  act: 0 none, 1 relu, 2 gelu, 6 relu6
#include "../layers/layer_common.h"

using namespace Halide;

namespace {

class GraphConv2D : public Generator<GraphConv2D> {
public:
    GeneratorParam<int> batch{"N", 1};
    GeneratorParam<int> height{"H", 17};
    GeneratorParam<int> width{"W", 17};
    GeneratorParam<int> in_ch{"CI", 128};
    GeneratorParam<int> out_ch{"CO", 128};
    GeneratorParam<int> kh{"KH", 1};
    GeneratorParam<int> kw{"KW", 7};
    GeneratorParam<int> sh{"SH", 1};
    GeneratorParam<int> sw{"SW", 1};
    GeneratorParam<int> ph{"PH", 0};
    GeneratorParam<int> pw{"PW", 3};
    GeneratorParam<int> dh{"DH", 1};
    GeneratorParam<int> dw{"DW", 1};
    GeneratorParam<int> groups{"G", 1};
    GeneratorParam<int> act{"act", 0};

    Input<Buffer<float>> input{"input", 4};
    Input<Buffer<float>> weight{"weight", 4};
    Input<Buffer<float>> bias{"bias", 1};
    Output<Buffer<float>> output{"output", 4};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        const int G = groups, CI = in_ch, CO = out_ch;
        const int KH = kh, KW = kw, SH = sh, SW = sw, PH = ph, PW = pw, DH = dh, DW = dw;
        if (G < 1 || CI % G || CO % G) throw std::invalid_argument("graph_conv2d: CI and CO must be divisible by G");
        const int CIG = CI / G, COG = CO / G;
        const int OH = ansor_ops::window_out(height, KH, SH, PH, DH);
        const int OW = ansor_ops::window_out(width, KW, SW, PW, DW);

        Var co("co"), x("x"), y("y"), n("n");
        Func padded = ansor_ops::zero_pad(input, {0, width, height, 0}, PH > 0 || PW > 0);
        RDom r(0, CIG, 0, KW, 0, KH, "r");  // ci within the group, kw, kh
        Expr ci = (co / COG) * CIG + r.x;
        Func conv("conv");
        conv(co, x, y, n) = 0.f;
        conv(co, x, y, n) += padded(ci, x * SW + r.y * DW - PW, y * SH + r.z * DH - PH, n) * weight(co, r.x, r.y, r.z);
        output(co, x, y, n) = ansor_layers::activate(conv(co, x, y, n) + bias(co), act);

        input.set_estimates(ansor_ops::extents({in_ch, width, height, batch}));
        weight.set_estimates(ansor_ops::extents({CO, CIG, KW, KH}));
        bias.set_estimates(ansor_ops::extents({out_ch}));
        output.set_estimates(ansor_ops::extents({out_ch, OW, OH, batch}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(GraphConv2D, graph_conv2d)
