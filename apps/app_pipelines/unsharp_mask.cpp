// unsharp_mask: sharpens a colour image by its luminance's difference from a
// Gaussian blur (sigma 1.5, 9 taps per pass), edges repeated.
//   input  (3, H, W) float planar   Halide (W, H, 3)
//   output (3, H, W) float planar   Halide (W, H, 3)
//   gray = luminance(input); sharp = 2 gray - gauss(gray)
//   output = input * sharp / (gray + 1e-4)
// Expert schedule: 512x32 tiles in parallel; grey and the vertical pass are
// computed per tile (4 extra rows each side), the horizontal pass and the
// ratio per output row, reused by the three channels; every stage
// vectorised at 16 floats.
#include "app_common.h"

#include <cmath>

using namespace Halide;

namespace {

constexpr int kRadius = 4;

// Normalised Gaussian weights for offsets -kRadius..kRadius.
std::vector<float> gaussian_weights(float sigma) {
    std::vector<float> w;
    float sum = 0;
    for (int i = -kRadius; i <= kRadius; i++) {
        w.push_back(std::exp(-(float)(i * i) / (2 * sigma * sigma)));
        sum += w.back();
    }
    for (float &v : w) v /= sum;
    return w;
}

class UnsharpMask : public Generator<UnsharpMask> {
public:
    GeneratorParam<bool> expert{"expert", false};
    GeneratorParam<int> width{"W", 2560};
    GeneratorParam<int> height{"H", 1536};

    Input<Buffer<float>> input{"input", 3};
    Output<Buffer<float>> output{"output", 3};

    void generate() {
        const std::vector<float> w = gaussian_weights(1.5f);
        Func clamped = BoundaryConditions::repeat_edge(input, {{0, width}, {0, height}, {0, 3}});
        gray(x, y) = 0.299f * clamped(x, y, 0) + 0.587f * clamped(x, y, 1) + 0.114f * clamped(x, y, 2);
        Expr vertical = 0.f, horizontal = 0.f;
        for (int i = -kRadius; i <= kRadius; i++) vertical += w[i + kRadius] * gray(x, y + i);
        blur_y(x, y) = vertical;
        for (int i = -kRadius; i <= kRadius; i++) horizontal += w[i + kRadius] * blur_y(x + i, y);
        blur_x(x, y) = horizontal;
        ratio(x, y) = (2.f * gray(x, y) - blur_x(x, y)) / (gray(x, y) + 1e-4f);
        output(x, y, c) = input(x, y, c) * ratio(x, y);

        input.set_estimates(ansor_apps::estimate_extents({width, height, 3}));
        output.set_estimates(ansor_apps::estimate_extents({width, height, 3}));
    }

    void schedule() {
        if (!expert) return;
        const int lanes = ansor_apps::kFloatLanes;
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi"), tile("tile");
        // No bound(c, 0, 3) + unroll(c): a bound on an output also adds an
        // estimate, and PipelineDAG (src/dag) then counts c twice.
        output.tile(x, y, xo, yo, xi, yi, 512, 32)
            .reorder(xi, c, yi, xo, yo)
            .vectorize(xi, lanes)
            .fuse(xo, yo, tile)
            .parallel(tile);
        gray.compute_at(output, tile).vectorize(x, lanes);
        blur_y.compute_at(output, tile).vectorize(x, lanes);
        ratio.compute_at(output, yi).vectorize(x, lanes);
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
    Func gray{"gray"}, blur_y{"blur_y"}, blur_x{"blur_x"}, ratio{"ratio"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(UnsharpMask, unsharp_mask)
