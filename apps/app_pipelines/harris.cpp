// harris: the Harris corner response of a colour image (edges repeated).
//   input  (3, H, W) float planar   Halide (W, H, 3)
//   output (H, W) float             Halide (W, H)
// Stages: grey; Sobel gradients Ix, Iy; the products Ix^2, Iy^2, IxIy;
// their 3x3 box sums Sxx, Syy, Sxy (the structure tensor); response
// det - 0.04 trace^2.
// Expert schedule: 256x32 tiles in parallel; grey and the two gradients
// computed per tile (halo 2 and 1), the products inlined into the box sums,
// which are inlined into the response; vectorised at 16 floats.
#include "app_common.h"

using namespace Halide;

namespace {

class Harris : public Generator<Harris> {
public:
    GeneratorParam<bool> expert{"expert", false};
    GeneratorParam<int> width{"W", 2560};
    GeneratorParam<int> height{"H", 1536};

    Input<Buffer<float>> input{"input", 3};
    Output<Buffer<float>> output{"output", 2};

    void generate() {
        Func clamped = BoundaryConditions::repeat_edge(input, {{0, width}, {0, height}, {0, 3}});
        gray(x, y) = 0.299f * clamped(x, y, 0) + 0.587f * clamped(x, y, 1) + 0.114f * clamped(x, y, 2);
        ix(x, y) = (gray(x + 1, y - 1) - gray(x - 1, y - 1)) + 2.f * (gray(x + 1, y) - gray(x - 1, y)) +
                   (gray(x + 1, y + 1) - gray(x - 1, y + 1));
        iy(x, y) = (gray(x - 1, y + 1) - gray(x - 1, y - 1)) + 2.f * (gray(x, y + 1) - gray(x, y - 1)) +
                   (gray(x + 1, y + 1) - gray(x + 1, y - 1));
        ixx(x, y) = ix(x, y) * ix(x, y);
        iyy(x, y) = iy(x, y) * iy(x, y);
        ixy(x, y) = ix(x, y) * iy(x, y);
        sxx(x, y) = box3(ixx);
        syy(x, y) = box3(iyy);
        sxy(x, y) = box3(ixy);
        Expr det = sxx(x, y) * syy(x, y) - sxy(x, y) * sxy(x, y);
        Expr trace = sxx(x, y) + syy(x, y);
        output(x, y) = det - 0.04f * trace * trace;

        input.set_estimates(ansor_apps::estimate_extents({width, height, 3}));
        output.set_estimates(ansor_apps::estimate_extents({width, height}));
    }

    void schedule() {
        if (!expert) return;
        const int lanes = ansor_apps::kFloatLanes;
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi"), tile("tile");
        output.tile(x, y, xo, yo, xi, yi, 256, 32).fuse(xo, yo, tile).parallel(tile).vectorize(xi, lanes);
        gray.compute_at(output, tile).vectorize(x, lanes);
        ix.compute_at(output, tile).vectorize(x, lanes);
        iy.compute_at(output, tile).vectorize(x, lanes);
    }

private:
    Var x{"x"}, y{"y"};
    Func gray{"gray"}, ix{"ix"}, iy{"iy"}, ixx{"ixx"}, iyy{"iyy"}, ixy{"ixy"};
    Func sxx{"sxx"}, syy{"syy"}, sxy{"sxy"};

    Expr box3(Func f) {
        Expr sum = 0.f;
        for (int dy = -1; dy <= 1; dy++) {
            for (int dx = -1; dx <= 1; dx++) sum += f(x + dx, y + dy);
        }
        return sum;
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Harris, harris)
