// graph_copy: copies a 3-D block; the graph executor's concat and split,
// which hand it a slice of their larger tensor (concat: the output, split:
// the input) seen as (outer O, axis A, inner I).
//   input, output (O, A, I)   Halide (I, A, O)
#include "../layers/layer_common.h"

using namespace Halide;

namespace {

class GraphCopy : public Generator<GraphCopy> {
public:
    GeneratorParam<int> outer{"O", 1};
    GeneratorParam<int> axis{"A", 64};
    GeneratorParam<int> inner{"I", 1};

    Input<Buffer<float>> input{"input", 3};
    Output<Buffer<float>> output{"output", 3};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        Var i("i"), a("a"), o("o");
        output(i, a, o) = input(i, a, o);
        // The slice's dimension 0 is dense only when I > 1 or it is the
        // innermost axis; let any stride through.
        input.dim(0).set_stride(Expr());
        output.dim(0).set_stride(Expr());
        input.set_estimates(ansor_ops::extents({inner, axis, outer}));
        output.set_estimates(ansor_ops::extents({inner, axis, outer}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(GraphCopy, graph_copy)
