// pool2d: max or average pooling over k×k windows (ResNet's stem max pool,
// the global average pools before the classifiers: k = H = W, s = 1, p = 0).
//   input  (N, H, W, C)    Halide (C, W, H, N)
//   output (N, OH, OW, C)  Halide (C, OW, OH, N),  OH = (H + 2p - k)/s + 1
//   mode 0: max over the window, padding never wins (it is -inf);
//   mode 1: sum over the window / (k·k), padding counting as 0.
#include "layer_common.h"

using namespace Halide;

namespace {

class Pool2D : public Generator<Pool2D> {
public:
    GeneratorParam<int> batch{"N", 1};
    GeneratorParam<int> height{"H", 112};
    GeneratorParam<int> width{"W", 112};
    GeneratorParam<int> channels{"C", 64};
    GeneratorParam<int> kernel{"k", 3};
    GeneratorParam<int> stride{"s", 2};
    GeneratorParam<int> pad{"p", 1};
    GeneratorParam<int> mode{"mode", 0};

    Input<Buffer<float>> input{"input", 4};
    Output<Buffer<float>> output{"output", 4};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        const int K = kernel, S = stride, P = pad;
        const int OH = ansor_ops::window_out(height, K, S, P);
        const int OW = ansor_ops::window_out(width, K, S, P);
        if (mode != 0 && mode != 1) {
            throw std::invalid_argument("pool2d: mode=" + std::to_string((int)mode) + " (0 max, 1 average)");
        }
        const bool is_max = mode == 0;

        Var c("c"), x("x"), y("y"), n("n");
        Func padded("padded");
        if (P > 0) {
            Region bounds = {Range(), Range(0, width), Range(0, height), Range()};
            padded = BoundaryConditions::constant_exterior(input, is_max ? Float(32).min() : 0.f, bounds);
        } else {
            padded(c, x, y, n) = input(c, x, y, n);
        }
        RDom r(0, K, 0, K, "r");  // kw, kh
        Func pool("pool");
        Expr tap = padded(c, x * S + r.x - P, y * S + r.y - P, n);
        if (is_max) {
            pool(c, x, y, n) = Float(32).min();
            pool(c, x, y, n) = max(pool(c, x, y, n), tap);
            output(c, x, y, n) = pool(c, x, y, n);
        } else {
            pool(c, x, y, n) = 0.f;
            pool(c, x, y, n) += tap;
            output(c, x, y, n) = pool(c, x, y, n) * (1.f / (K * K));
        }

        input.set_estimates(ansor_ops::extents({channels, width, height, batch}));
        output.set_estimates(ansor_ops::extents({channels, OW, OH, batch}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Pool2D, pool2d)
