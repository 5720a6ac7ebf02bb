// histogram_equalize: equalises the luminance histogram of an 8-bit colour
// image and scales each pixel's colour by its luminance's change.
//   input  (3, H, W) uint8 planar   Halide (W, H, 3)
//   output (3, H, W) uint8 planar   Halide (W, H, 3)
// Stages: luma (integer BT.601 weights); hist, a 256-bin histogram over the
// whole image (a data-dependent scatter); cdf, a scan over the bins; lut,
// the equalised luma of each bin; gain, lut[l] / l in 8.8 fixed point (the
// division done once per bin, not per pixel: x86 has no vector integer
// division); pixel_gain = gain[luma], per pixel;
// output = min((input * pixel_gain + 128) >> 8, 255).
// Data-dependent: the histogram's writes and the gain's reads are indexed by
// pixel values.
// Expert schedule: the histogram split by rfactor into partial histograms of
// 64-row strips computed in parallel, luma computed vectorised per row before
// the scalar scatter; the partials summed vectorised over the bins; cdf, lut
// and gain at root (256 entries); the output in parallel 64-row strips with
// pixel_gain computed per row and reused by the 3 channels, vectorised at 64
// lanes of uint8.
#include "app_common.h"

using namespace Halide;

namespace {

class HistogramEqualize : public Generator<HistogramEqualize> {
public:
    GeneratorParam<bool> expert{"expert", false};
    GeneratorParam<int> width{"W", 2560};
    GeneratorParam<int> height{"H", 1536};

    Input<Buffer<uint8_t>> input{"input", 3};
    Output<Buffer<uint8_t>> output{"output", 3};

    void generate() {
        Expr r = cast<uint16_t>(input(x, y, 0)), g = cast<uint16_t>(input(x, y, 1)), b = cast<uint16_t>(input(x, y, 2));
        luma(x, y) = cast<uint8_t>((77 * r + 150 * g + 29 * b + 128) >> 8);

        pixels = RDom(0, width, 0, height, "pixels");
        hist(i) = 0;
        hist(cast<int>(luma(pixels.x, pixels.y))) += 1;

        RDom bins(1, 255, "bins");
        cdf(i) = hist(i);
        cdf(bins) = cdf(bins - 1) + hist(bins);

        // Round(255 * cdf / pixels) in integers (the count fits 32 bits with 64-bit products).
        Expr total = cast<int64_t>((int)width * (int)height);
        lut(i) = cast<uint8_t>((cast<int64_t>(cdf(i)) * 255 + total / 2) / total);

        // 255 * 256 fits 16 bits.
        gain(i) = (cast<uint16_t>(lut(i)) << 8) / max(cast<uint16_t>(i), 1);
        pixel_gain(x, y) = gain(cast<int>(luma(x, y)));
        Expr scaled = (cast<uint32_t>(input(x, y, c)) * pixel_gain(x, y) + 128) >> 8;
        output(x, y, c) = cast<uint8_t>(min(scaled, 255));

        input.set_estimates(ansor_apps::estimate_extents({width, height, 3}));
        output.set_estimates(ansor_apps::estimate_extents({width, height, 3}));
    }

    void schedule() {
        if (!expert) return;
        const int lanes = ansor_apps::kU8Lanes;
        RVar strip("strip"), row("row");
        Var u("u"), yo("yo"), yi("yi");
        Func partial = hist.update().split(pixels.y, strip, row, 64).rfactor(strip, u);
        partial.compute_root().vectorize(i, 16).parallel(u);
        partial.update().parallel(u);
        luma.in(partial).compute_at(partial, row).vectorize(x, lanes);
        hist.compute_root().vectorize(i, 16);
        hist.update().vectorize(i, 16);
        cdf.compute_root();
        lut.compute_root().vectorize(i, 16);
        gain.compute_root().vectorize(i, 16);
        output.split(y, yo, yi, 64).reorder(x, c, yi, yo).parallel(yo).vectorize(x, lanes);
        pixel_gain.compute_at(output, yi).vectorize(x, ansor_apps::kU16Lanes);
    }

private:
    Var x{"x"}, y{"y"}, c{"c"}, i{"i"};
    Func luma{"luma"}, hist{"hist"}, cdf{"cdf"}, lut{"lut"}, gain{"gain"}, pixel_gain{"pixel_gain"};
    RDom pixels;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(HistogramEqualize, histogram_equalize)
