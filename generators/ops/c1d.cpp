// c1d: 1-D convolution.
//   input  (N, L, CI)    Halide (CI, L, N)
//   weight (k, CI, CO)   Halide (CO, CI, k)
//   output (N, OL, CO)   Halide (CO, OL, N),  OL = (L + 2p - k)/s + 1
#include "common.h"

using namespace Halide;

namespace {

class Conv1D : public Generator<Conv1D> {
public:
    GeneratorParam<int> batch{"N", 1};
    GeneratorParam<int> length{"L", 256};
    GeneratorParam<int> in_ch{"CI", 64};
    GeneratorParam<int> out_ch{"CO", 128};
    GeneratorParam<int> kernel{"k", 3};
    GeneratorParam<int> stride{"s", 2};
    GeneratorParam<int> pad{"p", 1};

    Input<Buffer<float>> input{"input", 3};
    Input<Buffer<float>> weight{"weight", 3};
    Output<Buffer<float>> output{"output", 3};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        const int K = kernel, S = stride, P = pad;
        const int OL = ansor_ops::window_out(length, K, S, P);

        Var co("co"), x("x"), n("n");
        Func padded = ansor_ops::zero_pad(input, {0, length, 0}, P > 0);
        RDom r(0, in_ch, 0, K, "r");  // ci, kx

        output(co, x, n) = 0.f;
        output(co, x, n) += padded(r.x, x * S + r.y - P, n) * weight(co, r.x, r.y);

        input.set_estimates(ansor_ops::extents({in_ch, length, batch}));
        weight.set_estimates(ansor_ops::extents({out_ch, in_ch, K}));
        output.set_estimates(ansor_ops::extents({out_ch, OL, batch}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Conv1D, c1d)
