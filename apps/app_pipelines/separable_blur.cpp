// separable_blur: a 5x5 binomial blur ([1 4 6 4 1]/16 in x, then in y) of a
// 16-bit grey image, edges repeated.
//   input  (H, W) uint16   Halide (W, H)
//   output (H, W) uint16   Halide (W, H)
// Expert schedule: 256x128 tiles in parallel; the horizontal pass stored
// per tile but computed one output row at a time (a sliding window: each
// of its rows is computed once, and only 5 are kept); both passes
// vectorised at 32 lanes of uint16 (the sums widen to 32 bits).
#include "app_common.h"

using namespace Halide;

namespace {

class SeparableBlur : public Generator<SeparableBlur> {
public:
    GeneratorParam<bool> expert{"expert", false};
    GeneratorParam<int> width{"W", 2560};
    GeneratorParam<int> height{"H", 1536};

    Input<Buffer<uint16_t>> input{"input", 2};
    Output<Buffer<uint16_t>> output{"output", 2};

    void generate() {
        Func clamped = BoundaryConditions::repeat_edge(input);
        Func wide("wide");
        wide(x, y) = cast<uint32_t>(clamped(x, y));
        // Each pass sums weights 16 and rounds back to 16 bits.
        blur_x(x, y) = cast<uint16_t>((wide(x - 2, y) + 4 * wide(x - 1, y) + 6 * wide(x, y) +
                                       4 * wide(x + 1, y) + wide(x + 2, y) + 8) >> 4);
        Func tall("tall");
        tall(x, y) = cast<uint32_t>(blur_x(x, y));
        output(x, y) = cast<uint16_t>((tall(x, y - 2) + 4 * tall(x, y - 1) + 6 * tall(x, y) +
                                       4 * tall(x, y + 1) + tall(x, y + 2) + 8) >> 4);

        input.set_estimates(ansor_apps::estimate_extents({width, height}));
        output.set_estimates(ansor_apps::estimate_extents({width, height}));
    }

    void schedule() {
        if (!expert) return;
        const int lanes = ansor_apps::kU16Lanes;
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi"), tile("tile");
        // Tiles no larger than the image: a tile shifted inwards to fit a
        // smaller image would start before its first row or column.
        const int tile_w = std::min<int>(256, width), tile_h = std::min<int>(128, height);
        output.tile(x, y, xo, yo, xi, yi, tile_w, tile_h).fuse(xo, yo, tile).parallel(tile).vectorize(xi, lanes);
        blur_x.store_at(output, tile).compute_at(output, yi).vectorize(x, lanes);
    }

private:
    Var x{"x"}, y{"y"};
    Func blur_x{"blur_x"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(SeparableBlur, separable_blur)
