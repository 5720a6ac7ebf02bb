// graph_enlarge: TASO's enlarge: zero-pads a convolution kernel to a larger
// window, centred, so that two convolutions of different kernel sizes can be
// merged into one.
//   weight (KH, KW, CI, CO)     Halide (CO, CI, kw, kh)
//   output (NKH, NKW, CI, CO)   output[y, x] = weight[y - (NKH-KH)/2, x - (NKW-KW)/2], 0 outside
#include "../layers/layer_common.h"

using namespace Halide;

namespace {

class GraphEnlarge : public Generator<GraphEnlarge> {
public:
    GeneratorParam<int> kh{"KH", 1}, kw{"KW", 1}, in_ch{"CI", 64}, out_ch{"CO", 64};
    GeneratorParam<int> new_kh{"NKH", 3}, new_kw{"NKW", 3};

    Input<Buffer<float>> weight{"weight", 4};
    Output<Buffer<float>> output{"output", 4};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        const int KH = kh, KW = kw, NKH = new_kh, NKW = new_kw;
        if (NKH < KH || NKW < KW || (NKH - KH) % 2 || (NKW - KW) % 2)
            throw std::invalid_argument("graph_enlarge: NKH, NKW must exceed KH, KW by an even amount");
        Var co("co"), ci("ci"), x("x"), y("y");
        Func padded = ansor_ops::zero_pad(weight, {0, 0, KW, KH});
        output(co, ci, x, y) = padded(co, ci, x - (NKW - KW) / 2, y - (NKH - KH) / 2);
        weight.set_estimates(ansor_ops::extents({out_ch, in_ch, KW, KH}));
        output.set_estimates(ansor_ops::extents({out_ch, in_ch, NKW, NKH}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(GraphEnlarge, graph_enlarge)
