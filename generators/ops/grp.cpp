// grp: grouped 2-D convolution; output channel co reads input channels
// g*CI/groups ... (g+1)*CI/groups - 1, where g = co / (CO/groups).
//   input  (N, H, W, CI)             Halide (CI, W, H, N)
//   weight (k, k, CI/groups, CO)     Halide (CO, CI/groups, kw, kh)
//   output (N, OH, OW, CO)           Halide (CO, OW, OH, N),  OH = (H + 2p - k)/s + 1
#include "common.h"

using namespace Halide;

namespace {

class GroupConv2D : public Generator<GroupConv2D> {
public:
    GeneratorParam<int> batch{"N", 1};
    GeneratorParam<int> height{"H", 56};
    GeneratorParam<int> width{"W", 56};
    GeneratorParam<int> in_ch{"CI", 64};
    GeneratorParam<int> out_ch{"CO", 128};
    GeneratorParam<int> kernel{"k", 3};
    GeneratorParam<int> stride{"s", 2};
    GeneratorParam<int> pad{"p", 1};
    GeneratorParam<int> groups{"groups", 4};

    Input<Buffer<float>> input{"input", 4};
    Input<Buffer<float>> weight{"weight", 4};
    Output<Buffer<float>> output{"output", 4};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        const int K = kernel, S = stride, P = pad, G = groups;
        if (in_ch % G != 0 || out_ch % G != 0) {
            throw CompileError("grp: CI and CO must be multiples of groups");
        }
        const int CIG = in_ch / G, COG = out_ch / G;
        const int OH = ansor_ops::window_out(height, K, S, P);
        const int OW = ansor_ops::window_out(width, K, S, P);

        Var co("co"), x("x"), y("y"), n("n");
        Func padded = ansor_ops::zero_pad(input, {0, width, height, 0}, P > 0);
        RDom r(0, CIG, 0, K, 0, K, "r");  // ci within the group, kw, kh
        Expr ci = (co / COG) * CIG + r.x;

        output(co, x, y, n) = 0.f;
        output(co, x, y, n) += padded(ci, x * S + r.y - P, y * S + r.z - P, n) *
                               weight(co, r.x, r.y, r.z);

        input.set_estimates(ansor_ops::extents({in_ch, width, height, batch}));
        weight.set_estimates(ansor_ops::extents({out_ch, CIG, K, K}));
        output.set_estimates(ansor_ops::extents({out_ch, OW, OH, batch}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(GroupConv2D, grp)
