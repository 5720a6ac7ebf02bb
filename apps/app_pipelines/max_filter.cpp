// max_filter: the maximum over a disk of radius R (grey dilation) of a float
// image, edges repeated.
//   input  (H, W) float   Halide (W, H)
//   output (H, W) float   Halide (W, H)
// A column of the disk at horizontal offset dx spans 2h+1 rows,
// h = floor(sqrt(R^2 - dx^2)). Stage span_k holds the maximum of 2^k rows
// starting at y (span_k from span_{k-1}: one max), so any column segment is
// the max of two overlapping power-of-two spans; the output is the max over
// the 2R+1 columns of two lookups each. Work per pixel: log2(2R+1) + 2(2R+1)
// maxes instead of (2R+1)^2.
// Expert schedule: 256x32 tiles in parallel; the span stages computed per
// tile (halo R in x, R + 2^k above and below), vectorised at 16 floats.
#include "app_common.h"

#include <cmath>

using namespace Halide;

namespace {

class MaxFilter : public Generator<MaxFilter> {
public:
    GeneratorParam<bool> expert{"expert", false};
    GeneratorParam<int> width{"W", 2560};
    GeneratorParam<int> height{"H", 1536};
    GeneratorParam<int> radius{"R", 12};

    Input<Buffer<float>> input{"input", 2};
    Output<Buffer<float>> output{"output", 2};

    void generate() {
        const int R = radius;
        if (R < 1) throw std::invalid_argument("max_filter: radius R must be >= 1, got " + std::to_string(R));
        Func clamped = BoundaryConditions::repeat_edge(input);
        Func prev = clamped;  // span_0: one row
        spans.push_back(prev);
        for (int k = 1; (1 << k) <= 2 * R + 1; k++) {
            Func s("span_" + std::to_string(k));
            s(x, y) = max(prev(x, y), prev(x, y + (1 << (k - 1))));
            spans.push_back(s);
            prev = s;
        }
        Expr result;
        for (int dx = -R; dx <= R; dx++) {
            const int h = (int)std::floor(std::sqrt((double)(R * R - dx * dx)));
            const int rows = 2 * h + 1;
            int k = 0;
            while ((2 << k) <= rows) k++;  // largest 2^k <= rows
            // Rows [y-h, y+h]: the span starting at y-h and the one ending at y+h.
            Expr column = max(spans[k](x + dx, y - h), spans[k](x + dx, y + h - (1 << k) + 1));
            result = result.defined() ? max(result, column) : column;
        }
        output(x, y) = result;

        input.set_estimates(ansor_apps::estimate_extents({width, height}));
        output.set_estimates(ansor_apps::estimate_extents({width, height}));
    }

    void schedule() {
        if (!expert) return;
        const int lanes = ansor_apps::kFloatLanes;
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi"), tile("tile");
        output.tile(x, y, xo, yo, xi, yi, 256, 32).fuse(xo, yo, tile).parallel(tile).vectorize(xi, lanes);
        for (size_t k = 1; k < spans.size(); k++) spans[k].compute_at(output, tile).vectorize(x, lanes);
    }

private:
    Var x{"x"}, y{"y"};
    std::vector<Func> spans;  // spans[0] is the clamped input
};

}  // namespace

HALIDE_REGISTER_GENERATOR(MaxFilter, max_filter)
