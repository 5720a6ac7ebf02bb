// dense_bias_act: a fully connected layer (matmul with a weight matrix) +
// bias + activation: classifier heads, BERT's projections and feed-forward.
//   input  (N, K)  Halide (K, N)
//   weight (K, M)  Halide (M, K)
//   bias   (M)     Halide (M)
//   output (N, M)  Halide (M, N)
//   output = act(input · weight + bias);  act: 0 none, 1 relu, 2 gelu (tanh form), 6 relu6
#include "layer_common.h"

using namespace Halide;

namespace {

class DenseBiasAct : public Generator<DenseBiasAct> {
public:
    GeneratorParam<int> rows{"N", 128};
    GeneratorParam<int> in_features{"K", 768};
    GeneratorParam<int> out_features{"M", 768};
    GeneratorParam<int> act{"act", 0};

    Input<Buffer<float>> input{"input", 2};
    Input<Buffer<float>> weight{"weight", 2};
    Input<Buffer<float>> bias{"bias", 1};
    Output<Buffer<float>> output{"output", 2};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        Var m("m"), n("n");
        RDom r(0, in_features, "r");
        Func matmul("matmul");
        matmul(m, n) = 0.f;
        matmul(m, n) += input(r, n) * weight(m, r);
        output(m, n) = ansor_layers::activate(matmul(m, n) + bias(m), act);

        input.set_estimates(ansor_ops::extents({in_features, rows}));
        weight.set_estimates(ansor_ops::extents({out_features, in_features}));
        bias.set_estimates(ansor_ops::extents({out_features}));
        output.set_estimates(ansor_ops::extents({out_features, rows}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(DenseBiasAct, dense_bias_act)
