// nrm: Frobenius (2-)norm of each matrix in a batch.
//   input  (B, M, N)   Halide (N, M, B)
//   output (B)         Halide (B),  output[b] = sqrt(sum over m, n of input[b, m, n]^2)
#include "common.h"

using namespace Halide;

namespace {

class Norm : public Generator<Norm> {
public:
    GeneratorParam<int> batch{"B", 1};
    GeneratorParam<int> rows{"M", 256};
    GeneratorParam<int> cols{"N", 256};

    Input<Buffer<float>> input{"input", 3};
    Output<Buffer<float>> output{"output", 1};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        Var b("b");
        RDom r(0, cols, 0, rows, "r");  // n, m

        Func sum_sq("sum_sq");
        sum_sq(b) = 0.f;
        sum_sq(b) += input(r.x, r.y, b) * input(r.x, r.y, b);
        output(b) = sqrt(sum_sq(b));

        input.set_estimates(ansor_ops::extents({cols, rows, batch}));
        output.set_estimates(ansor_ops::extents({batch}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Norm, nrm)
