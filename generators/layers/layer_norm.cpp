// layer_norm: layer normalisation over the last dimension, optionally of
// the sum with a residual tensor (BERT's "add & norm").
//   input    (N, D)  Halide (D, N)
//   shortcut (N, D)  Halide (D, N)   the residual; read only when residual=1
//   gamma, beta (D)  Halide (D)
//   output   (N, D)  Halide (D, N)
//   x = input (+ shortcut); output = (x - mean) / sqrt(var + 1e-5) · gamma + beta,
//   mean and (biased) variance over D.
#include "layer_common.h"

using namespace Halide;

namespace {

class LayerNorm : public Generator<LayerNorm> {
public:
    GeneratorParam<int> rows{"N", 128};
    GeneratorParam<int> dim{"D", 768};
    GeneratorParam<int> residual_add{"residual", 1};

    Input<Buffer<float>> input{"input", 2};
    // Always an argument (Halide 14 generators cannot make Inputs optional).
    Input<Buffer<float>> shortcut{"shortcut", 2};
    Input<Buffer<float>> gamma{"gamma", 1};
    Input<Buffer<float>> beta{"beta", 1};
    Output<Buffer<float>> output{"output", 2};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        Var d("d"), n("n");
        Func x("x");
        x(d, n) = residual_add ? input(d, n) + shortcut(d, n) : input(d, n);
        RDom r(0, dim, "r");
        Func sum("sum"), sum_sq("sum_sq");
        sum(n) = 0.f;
        sum(n) += x(r, n);
        sum_sq(n) = 0.f;
        sum_sq(n) += x(r, n) * x(r, n);
        const float inv_d = 1.f / (int)dim;
        Expr mean = sum(n) * inv_d;
        Expr var = max(sum_sq(n) * inv_d - mean * mean, 0.f);
        output(d, n) = (x(d, n) - mean) / sqrt(var + 1e-5f) * gamma(d) + beta(d);

        input.set_estimates(ansor_ops::extents({dim, rows}));
        shortcut.set_estimates(ansor_ops::extents({dim, rows}));
        gamma.set_estimates(ansor_ops::extents({dim}));
        beta.set_estimates(ansor_ops::extents({dim}));
        output.set_estimates(ansor_ops::extents({dim, rows}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(LayerNorm, layer_norm)
