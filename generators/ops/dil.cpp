// dil: dilated 2-D convolution (kernel taps `dilation` pixels apart).
//   input  (N, H, W, CI)    Halide (CI, W, H, N)
//   weight (k, k, CI, CO)   Halide (CO, CI, kw, kh)
//   output (N, OH, OW, CO)  Halide (CO, OW, OH, N),  OH = (H + 2p - dilation*(k-1) - 1)/s + 1
#include "common.h"

using namespace Halide;

namespace {

class DilatedConv2D : public Generator<DilatedConv2D> {
public:
    GeneratorParam<int> batch{"N", 1};
    GeneratorParam<int> height{"H", 224};
    GeneratorParam<int> width{"W", 224};
    GeneratorParam<int> in_ch{"CI", 3};
    GeneratorParam<int> out_ch{"CO", 64};
    GeneratorParam<int> kernel{"k", 7};
    GeneratorParam<int> stride{"s", 2};
    GeneratorParam<int> pad{"p", 3};
    GeneratorParam<int> dilation{"dilation", 2};

    Input<Buffer<float>> input{"input", 4};
    Input<Buffer<float>> weight{"weight", 4};
    Output<Buffer<float>> output{"output", 4};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        const int K = kernel, S = stride, P = pad, DL = dilation;
        const int OH = ansor_ops::window_out(height, K, S, P, DL);
        const int OW = ansor_ops::window_out(width, K, S, P, DL);

        Var co("co"), x("x"), y("y"), n("n");
        Func padded = ansor_ops::zero_pad(input, {0, width, height, 0}, P > 0);
        RDom r(0, in_ch, 0, K, 0, K, "r");  // ci, kw, kh

        output(co, x, y, n) = 0.f;
        output(co, x, y, n) += padded(r.x, x * S + r.y * DL - P, y * S + r.z * DL - P, n) *
                               weight(co, r.x, r.y, r.z);

        input.set_estimates(ansor_ops::extents({in_ch, width, height, batch}));
        weight.set_estimates(ansor_ops::extents({out_ch, in_ch, K, K}));
        output.set_estimates(ansor_ops::extents({out_ch, OW, OH, batch}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(DilatedConv2D, dil)
