// tbs: transpose + batch matmul + softmax (attention scores, unscaled):
//   scores[b, h, i, j] = sum over d of query[b, i, h, d] * key[b, j, h, d]
//   output[b, h, i, j] = softmax over j of scores[b, h, i, :]
//   query  (batch, seq, heads, dim)   Halide (dim, heads, seq, batch)
//   key    (batch, seq, heads, dim)   Halide (dim, heads, seq, batch)
//   output (batch, heads, seq, seq)   Halide (j, i, heads, batch)
#include "common.h"

using namespace Halide;

namespace {

class TransposeBatchMatmulSoftmax : public Generator<TransposeBatchMatmulSoftmax> {
public:
    GeneratorParam<int> batch{"batch", 1};
    GeneratorParam<int> seq{"seq", 128};
    GeneratorParam<int> heads{"heads", 12};
    GeneratorParam<int> dim{"dim", 64};

    Input<Buffer<float>> query{"query", 4};
    Input<Buffer<float>> key{"key", 4};
    Output<Buffer<float>> output{"output", 4};

    ANSOR_PASTED_SCHEDULE()

    void generate() {
        Var j("j"), i("i"), h("h"), b("b");
        RDom rd(0, dim, "rd");
        RDom rj(0, seq, "rj");

        Func scores("scores");
        scores(j, i, h, b) = 0.f;
        scores(j, i, h, b) += query(rd, h, i, b) * key(rd, h, j, b);

        Func row_max("row_max");
        row_max(i, h, b) = Float(32).min();
        row_max(i, h, b) = max(row_max(i, h, b), scores(rj, i, h, b));

        Func exps("exps");
        exps(j, i, h, b) = exp(scores(j, i, h, b) - row_max(i, h, b));

        Func row_sum("row_sum");
        row_sum(i, h, b) = 0.f;
        row_sum(i, h, b) += exps(rj, i, h, b);

        output(j, i, h, b) = exps(j, i, h, b) / row_sum(i, h, b);

        query.set_estimates(ansor_ops::extents({dim, heads, seq, batch}));
        key.set_estimates(ansor_ops::extents({dim, heads, seq, batch}));
        output.set_estimates(ansor_ops::extents({seq, seq, heads, batch}));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(TransposeBatchMatmulSoftmax, tbs)
