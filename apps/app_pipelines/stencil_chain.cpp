// stencil_chain: twelve 3x3 stencils applied one after the other to a float
// image (edges repeated), alternating three kernels: a 5-point smoothing
// cross, a diagonal smoothing X, and a sharpening 3x3. A long chain of
// cheap, dependent stages: the schedule decides how much to recompute
// across tile borders against how much to store.
//   input  (H, W) float   Halide (W, H)
//   output (H, W) float   Halide (W, H)
// Expert schedule: 512x128 output tiles in parallel; every stage stored
// per tile but computed one output row at a time (line buffers: Halide
// slides each stage's window down the tile, so a row is computed once and
// only 3 rows are kept), vectorised at 16 floats.
#include "app_common.h"

using namespace Halide;

namespace {

constexpr int kStages = 12;

class StencilChain : public Generator<StencilChain> {
public:
    GeneratorParam<bool> expert{"expert", false};
    GeneratorParam<int> width{"W", 2560};
    GeneratorParam<int> height{"H", 1536};

    Input<Buffer<float>> input{"input", 2};
    Output<Buffer<float>> output{"output", 2};

    void generate() {
        Func prev = BoundaryConditions::repeat_edge(input);
        for (int i = 0; i < kStages; i++) {
            Func s("stage_" + std::to_string(i));
            switch (i % 3) {
            case 0:  // cross
                s(x, y) = 0.5f * prev(x, y) +
                          0.125f * (prev(x - 1, y) + prev(x + 1, y) + prev(x, y - 1) + prev(x, y + 1));
                break;
            case 1:  // diagonal X
                s(x, y) = 0.6f * prev(x, y) +
                          0.1f * (prev(x - 1, y - 1) + prev(x + 1, y - 1) + prev(x - 1, y + 1) + prev(x + 1, y + 1));
                break;
            default:  // sharpen: 2 * centre - the 3x3 mean
                Expr sum = 0.f;
                for (int dy = -1; dy <= 1; dy++) {
                    for (int dx = -1; dx <= 1; dx++) sum += prev(x + dx, y + dy);
                }
                s(x, y) = 2.f * prev(x, y) - sum / 9.f;
                break;
            }
            stages.push_back(s);
            prev = s;
        }
        output(x, y) = prev(x, y);

        input.set_estimates(ansor_apps::estimate_extents({width, height}));
        output.set_estimates(ansor_apps::estimate_extents({width, height}));
    }

    void schedule() {
        if (!expert) return;
        const int lanes = ansor_apps::kFloatLanes;
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi"), tile("tile");
        // Tiles no larger than the image: a tile shifted inwards to fit a
        // smaller image would start before its first row or column.
        const int tile_w = std::min<int>(512, width), tile_h = std::min<int>(128, height);
        output.tile(x, y, xo, yo, xi, yi, tile_w, tile_h).fuse(xo, yo, tile).parallel(tile).vectorize(xi, lanes);
        // Line buffers: each stage stored per tile but computed one output
        // row at a time; Halide slides the window down the tile, so a row
        // of a stage is computed once, and folds the storage to 3 rows.
        for (Func &s : stages) s.store_at(output, tile).compute_at(output, yi).vectorize(x, lanes);
    }

private:
    Var x{"x"}, y{"y"};
    std::vector<Func> stages;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(StencilChain, stencil_chain)
