// t2d: transposed 2-D convolution (the gradient of a strided conv):
//   output[n, oh, ow, co] = sum over (ih, iw, ci, kh, kw) with
//   ih*s - p + kh == oh and iw*s - p + kw == ow of input[n, ih, iw, ci] * weight[kh, kw, ci, co].
//   input  (N, H, W, CI)    Halide (CI, W, H, N)
//   weight (k, k, CI, CO)   Halide (CO, CI, kw, kh)
//   output (N, OH, OW, CO)  Halide (CO, OW, OH, N),  OH = (H - 1)*s - 2p + k
// Written as a gather: the input upsampled by s (zeros between the pixels),
// then a stride-1 window over it.
#include "common.h"

using namespace Halide;

namespace {

class TransposedConv2D : public Generator<TransposedConv2D> {
public:
    GeneratorParam<int> batch{"N", 1};
    GeneratorParam<int> height{"H", 4};
    GeneratorParam<int> width{"W", 4};
    GeneratorParam<int> in_ch{"CI", 512};
    GeneratorParam<int> out_ch{"CO", 256};
    GeneratorParam<int> kernel{"k", 4};
    GeneratorParam<int> stride{"s", 2};
    GeneratorParam<int> pad{"p", 1};

    Input<Buffer<float>> input{"input", 4};
    Input<Buffer<float>> weight{"weight", 4};
    Output<Buffer<float>> output{"output", 4};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        const int K = kernel, S = stride, P = pad;
        const int OH = (height - 1) * S - 2 * P + K;
        const int OW = (width - 1) * S - 2 * P + K;

        Var ci("ci"), co("co"), x("x"), y("y"), n("n");
        Func padded = ansor_ops::zero_pad(input, {0, width, height, 0});
        Func upsampled("upsampled");
        upsampled(ci, x, y, n) = select(x % S == 0 && y % S == 0, padded(ci, x / S, y / S, n), 0.f);
        RDom r(0, in_ch, 0, K, 0, K, "r");  // ci, kw, kh

        output(co, x, y, n) = 0.f;
        output(co, x, y, n) += upsampled(r.x, x + P - r.y, y + P - r.z, n) * weight(co, r.x, r.y, r.z);

        input.set_estimates(ansor_ops::extents({in_ch, width, height, batch}));
        weight.set_estimates(ansor_ops::extents({out_ch, in_ch, K, K}));
        output.set_estimates(ansor_ops::extents({out_ch, OW, OH, batch}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(TransposedConv2D, t2d)
