// c3d: 3-D convolution (the kernel spans depth too).
//   input  (N, D, H, W, CI)      Halide (CI, W, H, D, N)
//   weight (k, k, k, CI, CO)     Halide (CO, CI, kw, kh, kd)
//   output (N, OD, OH, OW, CO)   Halide (CO, OW, OH, OD, N),  OD = (D + 2p - k)/s + 1
#include "common.h"

using namespace Halide;

namespace {

class Conv3D : public Generator<Conv3D> {
public:
    GeneratorParam<int> batch{"N", 1};
    GeneratorParam<int> depth{"D", 16};
    GeneratorParam<int> height{"H", 224};
    GeneratorParam<int> width{"W", 224};
    GeneratorParam<int> in_ch{"CI", 3};
    GeneratorParam<int> out_ch{"CO", 64};
    GeneratorParam<int> kernel{"k", 7};
    GeneratorParam<int> stride{"s", 2};
    GeneratorParam<int> pad{"p", 3};

    Input<Buffer<float>> input{"input", 5};
    Input<Buffer<float>> weight{"weight", 5};
    Output<Buffer<float>> output{"output", 5};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        const int K = kernel, S = stride, P = pad;
        const int OD = ansor_ops::window_out(depth, K, S, P);
        const int OH = ansor_ops::window_out(height, K, S, P);
        const int OW = ansor_ops::window_out(width, K, S, P);

        Var co("co"), x("x"), y("y"), z("z"), n("n");
        Func padded = ansor_ops::zero_pad(input, {0, width, height, depth, 0}, P > 0);
        RDom r(0, in_ch, 0, K, 0, K, 0, K, "r");  // ci, kw, kh, kd

        output(co, x, y, z, n) = 0.f;
        output(co, x, y, z, n) +=
            padded(r.x, x * S + r.y - P, y * S + r.z - P, z * S + r.w - P, n) *
            weight(co, r.x, r.y, r.z, r.w);

        input.set_estimates(ansor_ops::extents({in_ch, width, height, depth, batch}));
        weight.set_estimates(ansor_ops::extents({out_ch, in_ch, K, K, K}));
        output.set_estimates(ansor_ops::extents({out_ch, OW, OH, OD, batch}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Conv3D, c3d)
