// local_laplacian: edge-aware detail enhancement and tone mapping of a 16-bit
// colour image with local Laplacian pyramids (Paris, Hasinoff, Kautz 2011),
// sampled at K intensity levels.
//   input  (3, H, W) uint16 planar   Halide (W, H, 3)
//   output (3, H, W) float planar    Halide (W, H, 3), in [0, 1]
// (float rather than uint16: the schedules may contract multiply-adds
// differently, and a rounding to 16 bits would turn that into off-by-one
// pixels that an exact comparison rejects)
// Stages (J pyramid levels; each down/upsampling is two separable stages):
//   gray; remap, a lookup table of the detail curve d -> alpha d exp(-d^2 / 2 sigma^2);
//   processed(x, y, k) = beta (gray - k/(K-1)) + k/(K-1) + remap[gray - k/(K-1)]
//     (the table is read at a pixel-dependent index), for each level k;
//   its Gaussian pyramid (J levels, per k) and Laplacian pyramid;
//   the Gaussian pyramid of gray;
//   the output Laplacian pyramid: at each pixel of level j, the two Laplacian
//     pyramids whose k bracket gray's level-j value, interpolated (a
//     data-dependent read along k);
//   the collapsed output pyramid; colour = output grey * input / gray.
// J = 8 gives about 60 Funcs, boundary conditions at the input.
// Expert schedule: every pyramid level at root, computed in parallel strips
// of rows (fused with the intensity level k), vectorised at 16 floats, the
// horizontal half of each down/upsampling computed per strip (a few rows of
// overlap); the level-0 processed images per strip of the first
// downsampling; Laplacian levels inlined into the output pyramid; the
// colour output in parallel tiles.
#include "app_common.h"

#include <cmath>

using namespace Halide;

namespace {

constexpr int kLutHalf = 1024;  // remap has 2 kLutHalf + 1 entries over differences [-1, 1]

class LocalLaplacian : public Generator<LocalLaplacian> {
public:
    GeneratorParam<bool> expert{"expert", false};
    GeneratorParam<int> width{"W", 1280};
    GeneratorParam<int> height{"H", 768};
    GeneratorParam<int> levels{"J", 8};
    GeneratorParam<int> intensities{"K", 8};
    GeneratorParam<float> alpha{"alpha", 1.f};
    GeneratorParam<float> beta{"beta", 1.f};
    GeneratorParam<float> sigma{"sigma", 0.2f};

    Input<Buffer<uint16_t>> input{"input", 3};
    Output<Buffer<float>> output{"output", 3};

    void generate() {
        const int J = levels, K = intensities;
        if (J < 2 || K < 2) throw std::invalid_argument("local_laplacian: J and K must be >= 2");
        Func clamped = BoundaryConditions::repeat_edge(input, {{0, width}, {0, height}, {0, 3}});
        color(x, y, c) = cast<float>(clamped(x, y, c)) / 65535.f;
        gray(x, y) = 0.299f * color(x, y, 0) + 0.587f * color(x, y, 1) + 0.114f * color(x, y, 2);

        Expr d = cast<float>(i) / kLutHalf;
        const float two_sigma2 = 2.f * (float)sigma * (float)sigma;
        remap(i) = (float)alpha * d * exp(-d * d / two_sigma2);

        // processed(x, y, k): gray remapped around intensity k / (K - 1).
        Expr level = cast<float>(k) / (K - 1);
        Expr diff = gray(x, y) - level;
        Expr index = clamp(cast<int>(diff * kLutHalf), -kLutHalf, kLutHalf);
        processed(x, y, k) = (float)beta * diff + level + remap(index);

        // Gaussian pyramids of every processed image and of gray.
        g_pyr.push_back(processed);
        in_pyr.push_back(gray);
        for (int j = 1; j < J; j++) {
            g_pyr.push_back(downsample3(g_pyr[j - 1], "g_pyr_" + std::to_string(j), g_half));
            in_pyr.push_back(downsample2(in_pyr[j - 1], "in_pyr_" + std::to_string(j), in_half));
        }
        // Laplacian pyramids of the processed images.
        for (int j = 0; j < J; j++) {
            Func l("l_pyr_" + std::to_string(j));
            if (j == J - 1) l(x, y, k) = g_pyr[j](x, y, k);
            else l(x, y, k) = g_pyr[j](x, y, k) - upsample3(g_pyr[j + 1], "up_g_" + std::to_string(j))(x, y, k);
            l_pyr.push_back(l);
        }
        // The output's Laplacian pyramid: interpolated between the two
        // processed images whose intensities bracket the input's.
        for (int j = 0; j < J; j++) {
            Func o("out_l_pyr_" + std::to_string(j));
            Expr at = clamp(in_pyr[j](x, y), 0.f, 1.f) * (K - 1);
            Expr lo = clamp(cast<int>(at), 0, K - 2);
            Expr frac = at - lo;
            o(x, y) = lerp(l_pyr[j](x, y, lo), l_pyr[j](x, y, lo + 1), frac);
            out_l_pyr.push_back(o);
        }
        // Collapse.
        out_g_pyr.resize(J);
        out_half.resize(J);
        out_g_pyr[J - 1] = out_l_pyr[J - 1];
        for (int j = J - 2; j >= 0; j--) {
            Func o("out_g_pyr_" + std::to_string(j));
            o(x, y) = upsample2(out_g_pyr[j + 1], "up_out_" + std::to_string(j), out_half[j])(x, y) + out_l_pyr[j](x, y);
            out_g_pyr[j] = o;
        }
        // Colour: scale the input's colour by the change of its grey level.
        Expr ratio = (out_g_pyr[0](x, y) + 0.01f) / (gray(x, y) + 0.01f);
        output(x, y, c) = clamp(color(x, y, c) * ratio, 0.f, 1.f);

        input.set_estimates(ansor_apps::estimate_extents({width, height, 3}));
        output.set_estimates(ansor_apps::estimate_extents({width, height, 3}));
    }

    void schedule() {
        if (!expert) return;
        const int lanes = ansor_apps::kFloatLanes;
        const int J = levels;
        remap.compute_root().vectorize(i, lanes);
        gray.compute_root().parallel(y, 8).vectorize(x, lanes);
        for (int j = 1; j < J; j++) {
            strips(g_pyr[j], g_half[j - 1], true, j);
            strips(in_pyr[j], in_half[j - 1], false, j);
        }
        // The level-0 processed images: per strip of level 1 as well (each
        // value is read by two horizontal taps; computing it once keeps the
        // table lookups, gathers, to one per value). A wrapper, so that the
        // output pyramid's level 0 keeps its own inlined copy.
        processed.in(g_half[0]).compute_at(g_half[0], Var::outermost()).vectorize(x, lanes);
        for (int j = 0; j < J - 1; j++) strips(out_g_pyr[j], out_half[j], false, j);
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi"), tile("tile");
        output.tile(x, y, xo, yo, xi, yi, 256, 32).fuse(xo, yo, tile).parallel(tile).vectorize(xi, lanes);
    }

private:
    Var x{"x"}, y{"y"}, c{"c"}, k{"k"}, i{"i"};
    Func color{"color"}, gray{"gray"}, remap{"remap"}, processed{"processed"};
    std::vector<Func> g_pyr, in_pyr, l_pyr, out_l_pyr, out_g_pyr;
    // The horizontal halves of the resamplings: g_half[j - 1] and
    // in_half[j - 1] make level j; out_half[j] upsamples into out_g_pyr[j].
    std::vector<Func> g_half, in_half, out_half;

    Func downsample3(Func f, const std::string &name, std::vector<Func> &half) {
        Func dx(name + "_dx"), out(name);
        dx(x, y, k) = (f(2 * x - 1, y, k) + 3.f * (f(2 * x, y, k) + f(2 * x + 1, y, k)) + f(2 * x + 2, y, k)) / 8.f;
        out(x, y, k) = (dx(x, 2 * y - 1, k) + 3.f * (dx(x, 2 * y, k) + dx(x, 2 * y + 1, k)) + dx(x, 2 * y + 2, k)) / 8.f;
        half.push_back(dx);
        return out;
    }
    Func downsample2(Func f, const std::string &name, std::vector<Func> &half) {
        Func dx(name + "_dx"), out(name);
        dx(x, y) = (f(2 * x - 1, y) + 3.f * (f(2 * x, y) + f(2 * x + 1, y)) + f(2 * x + 2, y)) / 8.f;
        out(x, y) = (dx(x, 2 * y - 1) + 3.f * (dx(x, 2 * y) + dx(x, 2 * y + 1)) + dx(x, 2 * y + 2)) / 8.f;
        half.push_back(dx);
        return out;
    }
    // Linear interpolation to twice the size: weights 3/4 and 1/4 from the
    // two nearest coarse samples, in x then in y.
    Func upsample3(Func f, const std::string &name) {
        Func ux(name + "_ux"), out(name);
        ux(x, y, k) = 0.25f * f((x / 2) - 1 + 2 * (x % 2), y, k) + 0.75f * f(x / 2, y, k);
        out(x, y, k) = 0.25f * ux(x, (y / 2) - 1 + 2 * (y % 2), k) + 0.75f * ux(x, y / 2, k);
        return out;
    }
    Func upsample2(Func f, const std::string &name, Func &half) {
        Func ux(name + "_ux"), out(name);
        ux(x, y) = 0.25f * f((x / 2) - 1 + 2 * (x % 2), y) + 0.75f * f(x / 2, y);
        out(x, y) = 0.25f * ux(x, (y / 2) - 1 + 2 * (y % 2)) + 0.75f * ux(x, y / 2);
        half = ux;
        return out;
    }

    // f (pyramid level j) at root in parallel strips of rows (fused with k
    // for the 3-D pyramids), vectorised; its horizontal half per strip.
    // Levels narrower than a vector stay scalar.
    void strips(Func f, Func half, bool has_k, int j) {
        const int lanes = ansor_apps::kFloatLanes;
        const bool wide = ((int)width >> j) >= lanes;
        Var yo("yo"), yi("yi"), t("t");
        f.compute_root().split(y, yo, yi, 8);
        if (has_k) f.reorder(x, yi, yo, k).fuse(yo, k, t).parallel(t);
        else f.parallel(yo);
        if (wide) f.vectorize(x, lanes);
        half.compute_at(f, has_k ? t : yo);
        if (wide) half.vectorize(x, lanes);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(LocalLaplacian, local_laplacian)
