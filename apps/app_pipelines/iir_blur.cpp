// iir_blur: a first-order recursive (IIR) smoothing filter run down and back
// up every column, then along every row, of a planar float colour image.
//   input  (3, H, W) float planar   Halide (W, H, 3)
//   output (3, H, W) float planar   Halide (W, H, 3)
// Each pass is  s[i] = (1 - a) s[i-1] + a s[i]  forwards, then the same
// backwards, in place: a scan, so one loop of each pass is serial. The row
// passes run as column passes on the transposed image, so that every scan
// has contiguous, vectorisable work across its independent columns.
// Expert schedule: one channel at a time; each column pass in strips of 64
// columns (its three stages on one strip stay in L2), strips in parallel,
// scans vectorised at 16 floats with the strip's 4 vectors interleaved; the
// transposes in 16x16 blocks.
#include "app_common.h"

using namespace Halide;

namespace {

class IirBlur : public Generator<IirBlur> {
public:
    GeneratorParam<bool> expert{"expert", false};
    GeneratorParam<int> width{"W", 2560};
    GeneratorParam<int> height{"H", 1536};
    GeneratorParam<float> alpha{"alpha", 0.1f};

    Input<Buffer<float>> input{"input", 3};
    Output<Buffer<float>> output{"output", 3};

    void generate() {
        smooth_columns(input, height, cols);
        transposed(x, y, c) = cols(y, x, c);
        smooth_columns(transposed, width, rows);
        output(x, y, c) = rows(y, x, c);

        input.set_estimates(ansor_apps::estimate_extents({width, height, 3}));
        output.set_estimates(ansor_apps::estimate_extents({width, height, 3}));
    }

    void schedule() {
        if (!expert) return;
        const int lanes = ansor_apps::kFloatLanes, strip_width = 4 * lanes;
        Var strip("strip"), xo("xo"), xi("xi"), yi("yi"), yio("yio"), yii("yii");
        // transposed's y is the image's x: one strip of columns at a time,
        // transposed in 16x16 blocks: 16 rows of the block unrolled, each a
        // vector store of 16 along x; Halide turns the 16 strided loads into
        // dense loads and shuffles.
        // One channel at a time: a whole transposed image is needed between
        // the passes, and one channel's (15 MB) is reused by malloc from run
        // to run where all three (47 MB) would be mapped afresh each run
        // (glibc maps blocks over 32 MB; page faults are slow on some VMs).
        transposed.compute_at(output, c)
            .split(y, strip, yi, strip_width)
            .split(yi, yio, yii, lanes)
            .split(x, xo, xi, lanes)
            .reorder(xi, yii, xo, yio, strip, c)
            .vectorize(xi)
            .unroll(yii)
            .parallel(strip);
        schedule_scan(cols, LoopLevel(transposed, strip));
        output.split(y, strip, yi, strip_width)
            .split(yi, yio, yii, lanes)
            .split(x, xo, xi, lanes)
            .reorder(xi, yii, xo, yio, strip, c)
            .vectorize(xi)
            .unroll(yii)
            .parallel(strip);
        schedule_scan(rows, LoopLevel(output, strip));
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
    Func cols{"cols"}, transposed{"transposed"}, rows{"rows"};

    // The forward then backward scan down the columns of `in`, rows
    // 0..n-1, in place in `s`.
    void smooth_columns(Func in, int n, Func &s) {
        const float a = alpha;
        RDom fwd(1, n - 1, "fwd"), bwd(1, n - 1, "bwd");
        s(x, y, c) = in(x, y, c);
        s(x, fwd, c) = (1 - a) * s(x, fwd - 1, c) + a * s(x, fwd, c);
        Expr back = n - 1 - bwd;  // n-2 down to 0
        s(x, back, c) = (1 - a) * s(x, back + 1, c) + a * s(x, back, c);
    }

    // Every stage of a scan computed per strip, vectorised across columns;
    // the strip's vectors unrolled inside the serial loop, so that their
    // independent dependence chains overlap.
    void schedule_scan(Func s, LoopLevel at) {
        const int lanes = ansor_apps::kFloatLanes;
        Var xo("xo"), xi("xi");
        s.compute_at(at).vectorize(x, lanes);
        for (int u = 0; u < 2; u++) s.update(u).split(x, xo, xi, lanes).reorder(xi, xo).vectorize(xi).unroll(xo);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(IirBlur, iir_blur)
