// bilateral_grid: an edge-preserving blur of a grey float image through a
// bilateral grid (space cells of s x s pixels, 1/r intensity bins).
//   input  (H, W) float in [0, 1]   Halide (W, H)
//   output (H, W) float             Halide (W, H)
// Stages: histogram, the grid: every pixel of a cell adds (value, 1) to the
// bin of its intensity (a data-dependent scatter along z); blur_z, blur_x,
// blur_y: [1 4 6 4 1] along each grid axis; output: the blurred grid read
// back by trilinear interpolation at each pixel's (x, y, intensity) (a
// data-dependent gather), value sum over weight sum.
// Expert schedule: the grid built with rows of cells in parallel and 16
// cells at a time (a vector scatter: the lanes' cells differ, so their
// writes never collide); the three small blurs at root, rows in parallel,
// vectorised along x; the slicing in 256x32 tiles in parallel, vectorised
// at 16 floats (the grid reads become gathers).
#include "app_common.h"

using namespace Halide;

namespace {

class BilateralGrid : public Generator<BilateralGrid> {
public:
    GeneratorParam<bool> expert{"expert", false};
    GeneratorParam<int> width{"W", 2560};
    GeneratorParam<int> height{"H", 1536};
    GeneratorParam<int> s_sigma{"s", 8};
    GeneratorParam<float> r_sigma{"r", 0.1f};

    Input<Buffer<float>> input{"input", 2};
    Output<Buffer<float>> output{"output", 2};

    void generate() {
        const int s = s_sigma;
        const float inv_r = 1.f / (float)r_sigma;
        if (s < 1) throw std::invalid_argument("bilateral_grid: cell size s must be >= 1, got " + std::to_string(s));
        Func clamped = BoundaryConditions::repeat_edge(input);

        // Cell (x, y) holds pixels [x s - s/2, x s + s/2) x [y s - s/2, y s + s/2).
        cell = RDom(0, s, 0, s, "cell");
        Expr v = clamp(clamped(x * s + cell.x - s / 2, y * s + cell.y - s / 2), 0.f, 1.f);
        Expr bin = cast<int>(v * inv_r + 0.5f);
        histogram(x, y, z, c) = 0.f;
        histogram(x, y, bin, c) += select(c == 0, v, 1.f);

        blur_z(x, y, z, c) = taps(histogram(x, y, z - 2, c), histogram(x, y, z - 1, c), histogram(x, y, z, c),
                                  histogram(x, y, z + 1, c), histogram(x, y, z + 2, c));
        blur_x(x, y, z, c) = taps(blur_z(x - 2, y, z, c), blur_z(x - 1, y, z, c), blur_z(x, y, z, c),
                                  blur_z(x + 1, y, z, c), blur_z(x + 2, y, z, c));
        blur_y(x, y, z, c) = taps(blur_x(x, y - 2, z, c), blur_x(x, y - 1, z, c), blur_x(x, y, z, c),
                                  blur_x(x, y + 1, z, c), blur_x(x, y + 2, z, c));

        // Trilinear interpolation at the pixel's grid coordinates.
        Expr value = clamp(input(x, y), 0.f, 1.f);
        Expr gx = (x + 0.5f) / s, gy = (y + 0.5f) / s, gz = value * inv_r;
        Expr xi = cast<int>(floor(gx)), yi = cast<int>(floor(gy)), zi = cast<int>(floor(gz));
        Expr xf = gx - xi, yf = gy - yi, zf = gz - zi;
        auto at = [&](int c) {
            auto lerp_z = [&](Expr xx, Expr yy) {
                return lerp(blur_y(xx, yy, zi, c), blur_y(xx, yy, zi + 1, c), zf);
            };
            return lerp(lerp(lerp_z(xi, yi), lerp_z(xi + 1, yi), xf), lerp(lerp_z(xi, yi + 1), lerp_z(xi + 1, yi + 1), xf),
                        yf);
        };
        Expr sum = at(0), weight = at(1);
        output(x, y) = select(weight > 0.f, sum / weight, value);

        input.set_estimates(ansor_apps::estimate_extents({width, height}));
        output.set_estimates(ansor_apps::estimate_extents({width, height}));
    }

    void schedule() {
        if (!expert) return;
        const int lanes = ansor_apps::kFloatLanes;
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi"), tile("tile");
        histogram.compute_root().parallel(y).vectorize(x, lanes);
        histogram.update().reorder(c, cell.x, cell.y, x, y).unroll(c).parallel(y).vectorize(x, lanes);
        histogram.bound(c, 0, 2);
        for (Func f : {blur_z, blur_x, blur_y}) {
            f.compute_root().reorder(c, x, z, y).unroll(c).parallel(y).vectorize(x, lanes);
            f.bound(c, 0, 2);
        }
        output.tile(x, y, xo, yo, xi, yi, 256, 32).fuse(xo, yo, tile).parallel(tile).vectorize(xi, lanes);
    }

private:
    Var x{"x"}, y{"y"}, z{"z"}, c{"c"};
    Func histogram{"histogram"}, blur_z{"blur_z"}, blur_x{"blur_x"}, blur_y{"blur_y"};
    RDom cell;

    static Expr taps(Expr a, Expr b, Expr c, Expr d, Expr e) { return a + 4.f * b + 6.f * c + 4.f * d + e; }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(BilateralGrid, bilateral_grid)
