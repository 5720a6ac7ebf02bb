// matmul: single-precision matrix product C = A x B (row-major, like cblas).
//   a (M rows, K cols)   Halide (K, M)
//   b (K rows, N cols)   Halide (N, K)
//   c (M rows, N cols)   Halide (N, M)
// Expert schedule: rows in parallel blocks; within a block, 32 columns of B
// are packed into a dense panel (strided rows of B would alias in cache), then
// 8x32 register tiles accumulate over all of K in registers.
#include "app_common.h"

using namespace Halide;

namespace {

class Matmul : public Generator<Matmul> {
public:
    GeneratorParam<bool> expert{"expert", false};
    GeneratorParam<int> rows{"M", 1024};
    GeneratorParam<int> cols{"N", 1024};
    GeneratorParam<int> inner{"K", 1024};

    Input<Buffer<float>> a{"a", 2};
    Input<Buffer<float>> b{"b", 2};
    Output<Buffer<float>> c{"c", 2};

    void generate() {
        k = RDom(0, inner, "k");
        prod(x, y) = 0.f;
        prod(x, y) += a(k, y) * b(x, k);
        c(x, y) = prod(x, y);

        a.set_estimates(ansor_apps::estimate_extents({inner, rows}));
        b.set_estimates(ansor_apps::estimate_extents({cols, inner}));
        c.set_estimates(ansor_apps::estimate_extents({cols, rows}));
    }

    void schedule() {
        if (!expert) return;
        const int lanes = ansor_apps::kFloatLanes;
        const int tile_x = 2 * lanes, tile_y = 8, block_y = 64;
        Var xo("xo"), xi("xi"), yo("yo"), yi("yi"), yio("yio"), yii("yii");
        c.split(y, yo, yi, block_y)
            .split(x, xo, xi, tile_x)
            .split(yi, yio, yii, tile_y)
            .reorder(xi, yii, yio, xo, yo)
            .vectorize(xi, lanes)
            .unroll(xi)
            .parallel(yo);
        // The register tile: 8 rows x 2 vectors = 16 accumulators.
        prod.compute_at(c, yio).vectorize(x, lanes).unroll(x).unroll(y);
        prod.update().reorder(x, y, k).vectorize(x, lanes).unroll(x).unroll(y);
        // The packed panel of B: 32 columns x K, reused by every row tile of the block.
        Func panel = b.in();
        panel.compute_at(c, xo).vectorize(panel.args()[0], lanes);
    }

private:
    Var x{"x"}, y{"y"};
    Func prod{"prod"};
    RDom k;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Matmul, matmul)
