// nl_means: non-local means denoising of a colour float image: each pixel
// becomes a weighted mean of the pixels in a search window around it,
// weighted by how alike the patches around the two pixels are.
//   input  (3, H, W) float planar   Halide (W, H, 3)
//   output (3, H, W) float planar   Halide (W, H, 3)
// Stages, for every offset (dx, dy) of the search window (S x S):
//   dist(x, y, dx, dy): squared colour difference between pixel (x, y) and
//     pixel (x + dx, y + dy);
//   patch_y, patch: dist summed over the P x P patch (box sums along y, x);
//   weight = exp(-patch / (P^2 h^2));
//   sums(x, y, c): over the window's offsets, weight * input (c < 3) and
//     weight (c = 3); output = sums(c) / sums(3).
// S^2 offsets each read a P x P neighbourhood: the work is in the 4-D
// stages, which the root reference stores whole (S^2 images).
// Expert schedule: 128x32 output tiles in parallel; per tile, the window's
// offsets in turn: for one offset, dist, patch_y and patch computed over
// the tile (plus the patch's halo) and accumulated into the tile's sums,
// all vectorised at 16 floats; nothing 4-D is ever stored beyond a tile;
// the tile's input (with halo, edges repeated) copied first.
#include "app_common.h"

using namespace Halide;

namespace {

class NlMeans : public Generator<NlMeans> {
public:
    GeneratorParam<bool> expert{"expert", false};
    GeneratorParam<int> width{"W", 768};
    GeneratorParam<int> height{"H", 512};
    GeneratorParam<int> patch_size{"P", 7};
    GeneratorParam<int> search_size{"S", 7};
    GeneratorParam<float> h{"h", 0.12f};

    Input<Buffer<float>> input{"input", 3};
    Output<Buffer<float>> output{"output", 3};

    void generate() {
        const int P = patch_size, S = search_size;
        if (P < 1 || P % 2 == 0 || S < 1 || S % 2 == 0) {
            throw std::invalid_argument("nl_means: patch size P and search size S must be odd and positive");
        }
        const int pr = P / 2, sr = S / 2;
        clamped = BoundaryConditions::repeat_edge(input, {{0, width}, {0, height}, {0, 3}});

        Expr d = 0.f;
        for (int ch = 0; ch < 3; ch++) {
            Expr diff = clamped(x, y, ch) - clamped(x + dx, y + dy, ch);
            d += diff * diff;
        }
        dist(x, y, dx, dy) = d;
        Expr py = 0.f, px = 0.f;
        for (int j = -pr; j <= pr; j++) py += dist(x, y + j, dx, dy);
        patch_y(x, y, dx, dy) = py;
        for (int j = -pr; j <= pr; j++) px += patch_y(x + j, y, dx, dy);
        patch(x, y, dx, dy) = px;
        const float inv = 1.f / ((float)(P * P) * (float)h * (float)h);
        weight(x, y, dx, dy) = exp(-patch(x, y, dx, dy) * inv);

        window = RDom(-sr, S, -sr, S, "window");
        Expr w = weight(x, y, window.x, window.y);
        sums(x, y, c) = 0.f;
        sums(x, y, c) += w * select(c < 3, clamped(x + window.x, y + window.y, min(c, 2)), 1.f);
        output(x, y, c) = sums(x, y, c) / sums(x, y, 3);

        input.set_estimates(ansor_apps::estimate_extents({width, height, 3}));
        output.set_estimates(ansor_apps::estimate_extents({width, height, 3}));
    }

    void schedule() {
        if (!expert) return;
        const int lanes = ansor_apps::kFloatLanes;
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi"), tile("tile");
        output.tile(x, y, xo, yo, xi, yi, 128, 32)
            .reorder(xi, yi, c, xo, yo)
            .fuse(xo, yo, tile)
            .parallel(tile)
            .vectorize(xi, lanes);
        // The four sums (3 colours and the weight) per tile, the offsets
        // outermost so that one offset's patch distances serve all four.
        sums.compute_at(output, tile).bound(c, 0, 4).vectorize(x, lanes).unroll(c);
        sums.update().reorder(c, x, y, window.x, window.y).vectorize(x, lanes).unroll(c);
        patch.compute_at(sums, window.x).vectorize(x, lanes);
        patch_y.compute_at(sums, window.x).vectorize(x, lanes);
        dist.compute_at(sums, window.x).vectorize(x, lanes);
        weight.compute_at(sums, window.x).vectorize(x, lanes);
        // The tile's input with its halo, edges repeated once: the offsets'
        // reads are then plain vector loads, not clamped-index gathers.
        clamped.compute_at(output, tile).vectorize(clamped.args()[0], lanes);
    }

private:
    Var x{"x"}, y{"y"}, c{"c"}, dx{"dx"}, dy{"dy"};
    Func clamped, dist{"dist"}, patch_y{"patch_y"}, patch{"patch"}, weight{"weight"}, sums{"sums"};
    RDom window;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(NlMeans, nl_means)
