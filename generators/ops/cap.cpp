// cap: capsule 2-D convolution; every pixel and channel holds a caps x caps
// matrix, and the kernel multiplies matrices:
//   output[n, y, x, co, i, j] = sum over kh, kw, ci, m of
//       input[n, y*s + kh - p, x*s + kw - p, ci, i, m] * weight[kh, kw, ci, co, m, j]
//   input  (N, H, W, CI, caps, caps)   Halide (m, i, CI, W, H, N)
//   weight (k, k, CI, CO, caps, caps)  Halide (j, m, CO, CI, kw, kh)
//   output (N, OH, OW, CO, caps, caps) Halide (j, i, CO, OW, OH, N),  OH = (H + 2p - k)/s + 1
#include "common.h"

using namespace Halide;

namespace {

class CapsuleConv2D : public Generator<CapsuleConv2D> {
public:
    GeneratorParam<int> batch{"N", 1};
    GeneratorParam<int> height{"H", 16};
    GeneratorParam<int> width{"W", 16};
    GeneratorParam<int> in_ch{"CI", 32};
    GeneratorParam<int> out_ch{"CO", 32};
    GeneratorParam<int> kernel{"k", 3};
    GeneratorParam<int> stride{"s", 2};
    GeneratorParam<int> pad{"p", 1};
    GeneratorParam<int> caps{"caps", 4};

    Input<Buffer<float>> input{"input", 6};
    Input<Buffer<float>> weight{"weight", 6};
    Output<Buffer<float>> output{"output", 6};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        const int K = kernel, S = stride, P = pad, C = caps;
        const int OH = ansor_ops::window_out(height, K, S, P);
        const int OW = ansor_ops::window_out(width, K, S, P);

        Var j("j"), i("i"), co("co"), x("x"), y("y"), n("n");
        Func padded = ansor_ops::zero_pad(input, {0, 0, 0, width, height, 0}, P > 0);
        RDom r(0, C, 0, in_ch, 0, K, 0, K, "r");  // m, ci, kw, kh

        output(j, i, co, x, y, n) = 0.f;
        output(j, i, co, x, y, n) +=
            padded(r.x, i, r.y, x * S + r.z - P, y * S + r.w - P, n) *
            weight(j, r.x, co, r.y, r.z, r.w);

        input.set_estimates(ansor_ops::extents({C, C, in_ch, width, height, batch}));
        weight.set_estimates(ansor_ops::extents({C, C, out_ch, in_ch, K, K}));
        output.set_estimates(ansor_ops::extents({C, C, out_ch, OW, OH, batch}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(CapsuleConv2D, cap)
