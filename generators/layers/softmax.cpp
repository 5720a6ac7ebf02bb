// softmax: a row-wise softmax with the row maximum subtracted.
//   input  (N, D)  Halide (D, N)
//   output (N, D)  Halide (D, N),  output[n, :] = exp(x - max) / Σ exp(x - max)
#include "layer_common.h"

using namespace Halide;

namespace {

class Softmax : public Generator<Softmax> {
public:
    GeneratorParam<int> rows{"N", 1536};
    GeneratorParam<int> dim{"D", 128};

    Input<Buffer<float>> input{"input", 2};
    Output<Buffer<float>> output{"output", 2};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        Var d("d"), n("n");
        RDom r(0, dim, "r");
        Func row_max("row_max"), exps("exps"), row_sum("row_sum");
        row_max(n) = Float(32).min();
        row_max(n) = max(row_max(n), input(r, n));
        exps(d, n) = exp(input(d, n) - row_max(n));
        row_sum(n) = 0.f;
        row_sum(n) += exps(r, n);
        output(d, n) = exps(d, n) / row_sum(n);

        input.set_estimates(ansor_ops::extents({dim, rows}));
        output.set_estimates(ansor_ops::extents({dim, rows}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Softmax, softmax)
