// graph_transpose: permutes the dimensions of a tensor of up to 4 dims
// (fewer are padded with leading 1s): output dim d is input dim P<d>, as
// numpy.transpose. Layout conversions (NCHW -> NHWC: P = 0 2 3 1) too.
//   input  (S0, S1, S2, S3)          Halide (S3, S2, S1, S0)
//   output (S<P0>, S<P1>, S<P2>, S<P3>)
#include "../layers/layer_common.h"

using namespace Halide;

namespace {

class GraphTranspose : public Generator<GraphTranspose> {
public:
    GeneratorParam<int> s0{"S0", 1}, s1{"S1", 64}, s2{"S2", 56}, s3{"S3", 56};
    GeneratorParam<int> p0{"P0", 0}, p1{"P1", 2}, p2{"P2", 3}, p3{"P3", 1};

    Input<Buffer<float>> input{"input", 4};
    Output<Buffer<float>> output{"output", 4};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        const int S[4] = {s0, s1, s2, s3}, P[4] = {p0, p1, p2, p3};
        bool seen[4] = {false, false, false, false};
        for (int p : P) {
            if (p < 0 || p > 3 || seen[p]) throw std::invalid_argument("graph_transpose: P0..P3 must permute 0..3");
            seen[p] = true;
        }
        // Halide dim j is row-major dim 3 - j.
        std::vector<Var> v = {Var("v0"), Var("v1"), Var("v2"), Var("v3")};
        std::vector<Expr> at(4);
        for (int d = 0; d < 4; d++) at[3 - P[d]] = v[3 - d];  // input row-major dim P[d] = output row-major dim d
        output(v) = input(at);
        input.set_estimates(ansor_ops::extents({S[3], S[2], S[1], S[0]}));
        output.set_estimates(ansor_ops::extents({S[P[3]], S[P[2]], S[P[1]], S[P[0]]}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(GraphTranspose, graph_transpose)
