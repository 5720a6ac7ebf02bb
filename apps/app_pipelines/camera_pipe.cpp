// camera_pipe: raw Bayer sensor data to an 8-bit colour image.
//   raw     (H, W) uint16, 10-bit GRBG mosaic   Halide (W, H)
//   matrix  (3 x 4) float colour matrix         Halide (4, 3): matrix(i, c), i = r, g, b, offset
//   gamma, contrast: float scalars of the tone curve
//   output  (3, H, W) uint8 planar              Halide (W, H, 3)
// Stages (the mosaic's four colour planes are half-resolution images;
// in a 2x2 cell, Gr at (0,0), R at (1,0), B at (0,1), Gb at (1,1)):
//   plane_*: black level off, clamped to 10 bits, edges repeated (per
//     plane, so that the repeated pixels keep their colour);
//   denoised_*: hot-pixel suppression, clamped to the range of the four
//     same-colour neighbours;
//   green at R and at B: edge-directed, along the smaller gradient;
//   red and blue at the other three sites: colour differences to green,
//     interpolated from the nearest 2 or 4 sites;
//   red, green, blue: the full-resolution planes, interleaved;
//   corrected: the colour matrix, in 8.8 fixed point;
//   curve: the tone curve (gamma, then an S-curve of strength contrast) as
//     a 1024-entry table; curved: the table read at each corrected value
//     (a data-dependent read);
//   output: sharpened, 2 curved - its [1 2 1]^2 blur.
// Integer arithmetic throughout (the table is computed in float, once and
// by the same scalar code in every schedule), so schedules agree exactly.
// Expert schedule: 256x32 output tiles in parallel; the denoised planes,
// green at R and B, the interleaved planes and the curved image computed
// per tile (the last with the sharpening's 1-pixel halo), vectorised at
// 32 lanes of int16 (16 for the fixed-point matrix); the table at root.
#include "app_common.h"

using namespace Halide;

namespace {

constexpr int kBlack = 25, kWhite = 1023;

class CameraPipe : public Generator<CameraPipe> {
public:
    GeneratorParam<bool> expert{"expert", false};
    GeneratorParam<int> width{"W", 2560};
    GeneratorParam<int> height{"H", 1536};

    Input<Buffer<uint16_t>> raw{"raw", 2};
    Input<Buffer<float>> matrix{"matrix", 2};
    Input<float> gamma{"gamma"};
    Input<float> contrast{"contrast"};
    Output<Buffer<uint8_t>> output{"output", 3};

    void generate() {
        if ((int)width % 2 || (int)height % 2) {
            throw std::invalid_argument("camera_pipe: W and H must be even (whole Bayer cells)");
        }
        const int hw = (int)width / 2, hh = (int)height / 2;
        auto plane = [&](int dx, int dy, const char *name) {
            Func p(std::string("plane_") + name);
            p(x, y) = cast<int16_t>(clamp(cast<int>(raw(2 * x + dx, 2 * y + dy)) - kBlack, 0, kWhite - kBlack));
            return BoundaryConditions::repeat_edge(p, {{0, hw}, {0, hh}});
        };
        gr = denoise(plane(0, 0, "gr"), "gr");
        r = denoise(plane(1, 0, "r"), "r");
        b = denoise(plane(0, 1, "b"), "b");
        gb = denoise(plane(1, 1, "gb"), "gb");

        // Green at R (2x+1, 2y): Gr left and right, Gb above and below.
        g_at_r(x, y) = directional(gr(x, y), gr(x + 1, y), gb(x, y - 1), gb(x, y));
        // Green at B (2x, 2y+1): Gb left and right, Gr above and below.
        g_at_b(x, y) = directional(gb(x - 1, y), gb(x, y), gr(x, y), gr(x, y + 1));
        // Colour differences to green, interpolated.
        Func r_minus_g("r_minus_g"), b_minus_g("b_minus_g");
        r_minus_g(x, y) = r(x, y) - g_at_r(x, y);
        b_minus_g(x, y) = b(x, y) - g_at_b(x, y);
        Expr r_at_gr = gr(x, y) + avg(r_minus_g(x - 1, y), r_minus_g(x, y));
        Expr r_at_gb = gb(x, y) + avg(r_minus_g(x, y), r_minus_g(x, y + 1));
        Expr r_at_b = g_at_b(x, y) + avg4(r_minus_g(x - 1, y), r_minus_g(x, y), r_minus_g(x - 1, y + 1), r_minus_g(x, y + 1));
        Expr b_at_gr = gr(x, y) + avg(b_minus_g(x, y - 1), b_minus_g(x, y));
        Expr b_at_gb = gb(x, y) + avg(b_minus_g(x, y), b_minus_g(x + 1, y));
        Expr b_at_r = g_at_r(x, y) + avg4(b_minus_g(x, y - 1), b_minus_g(x + 1, y - 1), b_minus_g(x, y), b_minus_g(x + 1, y));

        // Full resolution: pick the value for the site's position in its cell.
        Expr cx = x / 2, cy = y / 2, odd_x = x % 2 == 1, odd_y = y % 2 == 1;
        auto interleave = [&](Expr at_gr, Expr at_r, Expr at_b, Expr at_gb) {
            auto cell = [&](Expr e) { return substitute({{x.name(), cx}, {y.name(), cy}}, e); };
            return select(odd_y, select(odd_x, cell(at_gb), cell(at_b)), select(odd_x, cell(at_r), cell(at_gr)));
        };
        red(x, y) = interleave(r_at_gr, r(x, y), r_at_b, r_at_gb);
        green(x, y) = interleave(gr(x, y), g_at_r(x, y), g_at_b(x, y), gb(x, y));
        blue(x, y) = interleave(b_at_gr, b_at_r, b(x, y), b_at_gb);

        // Colour matrix in 8.8 fixed point; the offset in 10-bit units.
        matrix_q(i, c) = cast<int32_t>(round(matrix(i, c) * 256.f));
        Expr mixed = matrix_q(0, c) * cast<int32_t>(red(x, y)) + matrix_q(1, c) * cast<int32_t>(green(x, y)) +
                     matrix_q(2, c) * cast<int32_t>(blue(x, y)) + matrix_q(3, c) * kWhite;
        corrected(x, y, c) = cast<int16_t>(clamp(mixed >> 8, 0, kWhite));

        // Tone curve: gamma, then blend towards a smoothstep S-curve.
        Expr v = cast<float>(i) / kWhite;
        Expr g = pow(v, 1.f / gamma);
        Expr s = lerp(g, g * g * (3.f - 2.f * g), clamp(contrast, 0.f, 1.f));
        curve(i) = cast<uint8_t>(clamp(s * 255.f + 0.5f, 0.f, 255.f));
        curved(x, y, c) = cast<int16_t>(curve(cast<int>(corrected(x, y, c))));

        // Sharpen: 2 curved - [1 2 1]^2 / 16 blur.
        blur_x(x, y, c) = curved(x - 1, y, c) + 2 * curved(x, y, c) + curved(x + 1, y, c);
        Expr blur = (blur_x(x, y - 1, c) + 2 * blur_x(x, y, c) + blur_x(x, y + 1, c) + 8) >> 4;
        output(x, y, c) = cast<uint8_t>(clamp(2 * curved(x, y, c) - blur, 0, 255));

        raw.set_estimates(ansor_apps::estimate_extents({width, height}));
        matrix.set_estimates(ansor_apps::estimate_extents({4, 3}));
        gamma.set_estimate(2.2f);
        contrast.set_estimate(0.5f);
        output.set_estimates(ansor_apps::estimate_extents({width, height, 3}));
    }

    void schedule() {
        if (!expert) return;
        const int lanes = ansor_apps::kU16Lanes;
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi"), tile("tile");
        output.tile(x, y, xo, yo, xi, yi, 256, 32)
            .reorder(xi, yi, c, xo, yo)
            .fuse(xo, yo, tile)
            .parallel(tile)
            .vectorize(xi, lanes);
        curved.compute_at(output, tile).reorder(x, y, c).vectorize(x, lanes);
        blur_x.compute_at(output, tile).reorder(x, y, c).vectorize(x, lanes);
        for (Func f : {red, green, blue}) f.compute_at(output, tile).vectorize(x, lanes);
        for (Func f : {gr, r, b, gb, g_at_r, g_at_b}) f.compute_at(output, tile).vectorize(x, lanes);
        matrix_q.compute_root();
        curve.compute_root();
    }

private:
    Var x{"x"}, y{"y"}, c{"c"}, i{"i"};
    Func gr, r, b, gb;
    Func g_at_r{"g_at_r"}, g_at_b{"g_at_b"}, red{"red"}, green{"green"}, blue{"blue"};
    Func matrix_q{"matrix_q"}, corrected{"corrected"}, curve{"curve"}, curved{"curved"}, blur_x{"blur_x"};

    static Expr avg(Expr a, Expr b) { return (a + b) >> 1; }
    static Expr avg4(Expr a, Expr b, Expr c, Expr d) { return (a + b + c + d) >> 2; }

    // Hot-pixel suppression: clamp to the range of the 4 neighbours of the same colour.
    Func denoise(Func p, const std::string &name) {
        Func d("denoised_" + name);
        Expr lo = min(min(p(x - 1, y), p(x + 1, y)), min(p(x, y - 1), p(x, y + 1)));
        Expr hi = max(max(p(x - 1, y), p(x + 1, y)), max(p(x, y - 1), p(x, y + 1)));
        d(x, y) = clamp(p(x, y), lo, hi);
        return d;
    }

    // The mean of the pair with the smaller difference (horizontal a, b or vertical c, d).
    static Expr directional(Expr a, Expr b, Expr c, Expr d) {
        return select(absd(a, b) < absd(c, d), avg(a, b), avg(c, d));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(CameraPipe, camera_pipe)
