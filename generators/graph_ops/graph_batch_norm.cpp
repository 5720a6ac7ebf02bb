// graph_batch_norm: inference batch normalisation over the last dimension
// (channels of an NHWC tensor), the other dimensions flattened into R rows.
//   input, output (R, C)   Halide (C, R)
//   gamma, beta, mean, var (C)
//   output = (input - mean[c]) / sqrt(var[c] + eps) * gamma[c] + beta[c]
#include "../layers/layer_common.h"

using namespace Halide;

namespace {

class GraphBatchNorm : public Generator<GraphBatchNorm> {
public:
    GeneratorParam<int> rows{"R", 3136};
    GeneratorParam<int> channels{"C", 64};
    GeneratorParam<float> eps{"eps", 1e-5f};

    Input<Buffer<float>> input{"input", 2};
    Input<Buffer<float>> gamma{"gamma", 1};
    Input<Buffer<float>> beta{"beta", 1};
    Input<Buffer<float>> mean{"mean", 1};
    Input<Buffer<float>> var{"var", 1};
    Output<Buffer<float>> output{"output", 2};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        Var c("c"), r("r");
        Func scale("scale");
        scale(c) = gamma(c) / sqrt(var(c) + (float)eps);
        output(c, r) = (input(c, r) - mean(c)) * scale(c) + beta(c);
        input.set_estimates(ansor_ops::extents({channels, rows}));
        for (auto *p : {&gamma, &beta, &mean, &var}) p->set_estimates(ansor_ops::extents({channels}));
        output.set_estimates(ansor_ops::extents({channels, rows}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(GraphBatchNorm, graph_batch_norm)
