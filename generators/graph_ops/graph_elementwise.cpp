// graph_elementwise: the graph executor's elementwise binary operators over
// E elements (tensors of any shape, flattened).
//   a, b, output (E)   output = a + b (op 0) or a * b (op 1)
#include "../layers/layer_common.h"

using namespace Halide;

namespace {

class GraphElementwise : public Generator<GraphElementwise> {
public:
    GeneratorParam<int> elements{"E", 4096};
    GeneratorParam<int> op{"op", 0};

    Input<Buffer<float>> a{"a", 1};
    Input<Buffer<float>> b{"b", 1};
    Output<Buffer<float>> output{"output", 1};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        if (op != 0 && op != 1) throw std::invalid_argument("graph_elementwise: op must be 0 (add) or 1 (mul)");
        Var i("i");
        output(i) = op == 0 ? a(i) + b(i) : a(i) * b(i);
        a.set_estimates(ansor_ops::extents({elements}));
        b.set_estimates(ansor_ops::extents({elements}));
        output.set_estimates(ansor_ops::extents({elements}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(GraphElementwise, graph_elementwise)
