// histogram_equalize: equalises the luminance histogram of an 8-bit colour
// image and scales each pixel's colour by its luminance's change.
//   input  (3, H, W) uint8 planar   Halide (W, H, 3)
//   output (3, H, W) uint8 planar   Halide (W, H, 3)
// Stages: luma (integer BT.601 weights); hist, a 256-bin histogram over the
// whole image (a data-dependent scatter); cdf, a scan over the bins; lut,
// the equalised luma of each bin; output = min(input * lut[luma] / max(luma, 1), 255).
// Data-dependent: the histogram's writes and the lut's reads are indexed by
// pixel values.
// Expert schedule: the histogram split by rfactor into partial histograms of
// 64-row strips computed in parallel (luma inlined), then summed vectorised
// over the bins; cdf and lut at root (256 entries); the output in parallel
// 64-row strips with luma computed per row and reused by the 3 channels,
// vectorised at 64 lanes of uint8 (32 of uint16 for the arithmetic).
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

        Expr l = cast<uint16_t>(luma(x, y));
        Expr scaled = cast<uint16_t>(input(x, y, c)) * cast<uint16_t>(lut(cast<int>(luma(x, y)))) / max(l, 1);
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
        hist.compute_root().vectorize(i, 16);
        hist.update().vectorize(i, 16);
        cdf.compute_root();
        lut.compute_root().vectorize(i, 16);
        output.split(y, yo, yi, 64).reorder(x, c, yi, yo).parallel(yo).vectorize(x, lanes);
        // luma stays inlined into the histogram; the output reads a copy per row.
        luma.in(output).compute_at(output, yi).vectorize(x, lanes);
    }

private:
    Var x{"x"}, y{"y"}, c{"c"}, i{"i"};
    Func luma{"luma"}, hist{"hist"}, cdf{"cdf"}, lut{"lut"};
    RDom pixels;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(HistogramEqualize, histogram_equalize)
