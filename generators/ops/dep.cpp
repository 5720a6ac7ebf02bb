// dep: depthwise 2-D convolution (channel multiplier 1).
//   input  (N, H, W, C)    Halide (C, W, H, N)
//   weight (k, k, C)       Halide (C, kw, kh)
//   output (N, OH, OW, C)  Halide (C, OW, OH, N),  OH = (H + 2p - k)/s + 1
#include "common.h"

using namespace Halide;

namespace {

class DepthwiseConv2D : public Generator<DepthwiseConv2D> {
public:
    GeneratorParam<int> batch{"N", 1};
    GeneratorParam<int> height{"H", 112};
    GeneratorParam<int> width{"W", 112};
    GeneratorParam<int> channels{"C", 32};
    GeneratorParam<int> kernel{"k", 3};
    GeneratorParam<int> stride{"s", 1};
    GeneratorParam<int> pad{"p", 1};

    Input<Buffer<float>> input{"input", 4};
    Input<Buffer<float>> weight{"weight", 3};
    Output<Buffer<float>> output{"output", 4};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        const int K = kernel, S = stride, P = pad;
        const int OH = ansor_ops::window_out(height, K, S, P);
        const int OW = ansor_ops::window_out(width, K, S, P);

        Var c("c"), x("x"), y("y"), n("n");
        Func padded = ansor_ops::zero_pad(input, {0, width, height, 0}, P > 0);
        RDom r(0, K, 0, K, "r");  // kw, kh

        output(c, x, y, n) = 0.f;
        output(c, x, y, n) += padded(c, x * S + r.x - P, y * S + r.y - P, n) * weight(c, r.x, r.y);

        input.set_estimates(ansor_ops::extents({channels, width, height, batch}));
        weight.set_estimates(ansor_ops::extents({channels, K, K}));
        output.set_estimates(ansor_ops::extents({channels, OW, OH, batch}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(DepthwiseConv2D, dep)
