// gmm: batched matrix multiply, output[b] = lhs[b] x rhs[b].
//   lhs    (B, N, K)   Halide (K, N, B)
//   rhs    (B, K, M)   Halide (M, K, B)
//   output (B, N, M)   Halide (M, N, B)
#include "common.h"

using namespace Halide;

namespace {

class BatchMatmul : public Generator<BatchMatmul> {
public:
    GeneratorParam<int> batch{"B", 1};
    GeneratorParam<int> rows{"N", 128};
    GeneratorParam<int> cols{"M", 128};
    GeneratorParam<int> inner{"K", 128};

    Input<Buffer<float>> lhs{"lhs", 3};
    Input<Buffer<float>> rhs{"rhs", 3};
    Output<Buffer<float>> output{"output", 3};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        Var j("j"), i("i"), b("b");
        RDom r(0, inner, "r");

        output(j, i, b) = 0.f;
        output(j, i, b) += lhs(r, i, b) * rhs(j, r, b);

        lhs.set_estimates(ansor_ops::extents({inner, rows, batch}));
        rhs.set_estimates(ansor_ops::extents({cols, inner, batch}));
        output.set_estimates(ansor_ops::extents({cols, rows, batch}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(BatchMatmul, gmm)
