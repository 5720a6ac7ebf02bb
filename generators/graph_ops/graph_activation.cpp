// graph_activation: a standalone activation over E elements (flattened).
//   input, output (E)   act: 1 relu, 2 gelu (tanh form), 3 sigmoid, 6 relu6
#include "../layers/layer_common.h"

using namespace Halide;

namespace {

class GraphActivation : public Generator<GraphActivation> {
public:
    GeneratorParam<int> elements{"E", 4096};
    GeneratorParam<int> act{"act", 1};

    Input<Buffer<float>> input{"input", 1};
    Output<Buffer<float>> output{"output", 1};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        Var i("i");
        // Sigmoid is this generator's own code; the others are layer_common.h's.
        output(i) = act == 3 ? 1.f / (1.f + exp(-input(i))) : ansor_layers::activate(input(i), act);
        input.set_estimates(ansor_ops::extents({elements}));
        output.set_estimates(ansor_ops::extents({elements}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(GraphActivation, graph_activation)
