#include "reference_ops.h"

#include <algorithm>
#include <cmath>

namespace ansor_graph {

float ref_activate(float x, Act a) {
    switch (a) {
    case Act::kNone: return x;
    case Act::kRelu: return std::max(x, 0.f);
    case Act::kRelu6: return std::min(std::max(x, 0.f), 6.f);
    case Act::kGelu: return 0.5f * x * (1.f + std::tanh(0.7978845608f * (x + 0.044715f * x * x * x)));
    case Act::kSigmoid: return 1.f / (1.f + std::exp(-x));
    }
    return x;
}

Tensor ref_conv2d(const Tensor &x, const Tensor &w, const Tensor *bias, const ConvAttrs &a, const Tensor *residual) {
    const int N = x.shape[0], H = x.shape[1], W = x.shape[2], CI = x.shape[3];
    const int KH = w.shape[0], KW = w.shape[1], CIG = w.shape[2], CO = w.shape[3];
    const int OH = window_out(H, KH, a.sh, a.ph, a.dh), OW = window_out(W, KW, a.sw, a.pw, a.dw);
    const int COG = CO / a.groups;
    Tensor o = make_tensor({N, OH, OW, CO});
    for (int n = 0; n < N; n++)
        for (int oy = 0; oy < OH; oy++)
            for (int ox = 0; ox < OW; ox++)
                for (int co = 0; co < CO; co++) {
                    const int g = co / COG;
                    double s = bias ? (*bias)[co] : 0.0;
                    for (int ky = 0; ky < KH; ky++)
                        for (int kx = 0; kx < KW; kx++) {
                            const int iy = oy * a.sh + ky * a.dh - a.ph, ix = ox * a.sw + kx * a.dw - a.pw;
                            if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                            for (int c = 0; c < CIG; c++) {
                                const int ci = g * CIG + c;
                                s += (double)x[((int64_t)(n * H + iy) * W + ix) * CI + ci] *
                                     w[((int64_t)(ky * KW + kx) * CIG + c) * CO + co];
                            }
                        }
                    const int64_t at = ((int64_t)(n * OH + oy) * OW + ox) * CO + co;
                    if (residual) s += (*residual)[at];
                    o[at] = ref_activate((float)s, a.act);
                }
    return o;
}

Tensor ref_conv2d_transpose(const Tensor &x, const Tensor &w, const ConvTransposeAttrs &a) {
    const int N = x.shape[0], H = x.shape[1], W = x.shape[2], CI = x.shape[3], K = w.shape[0], CO = w.shape[3];
    const int OH = (H - 1) * a.s - 2 * a.p + K, OW = (W - 1) * a.s - 2 * a.p + K;
    std::vector<double> acc((size_t)N * OH * OW * CO, 0.0);
    for (int n = 0; n < N; n++)
        for (int iy = 0; iy < H; iy++)
            for (int ix = 0; ix < W; ix++)
                for (int ky = 0; ky < K; ky++)
                    for (int kx = 0; kx < K; kx++) {
                        const int oy = iy * a.s - a.p + ky, ox = ix * a.s - a.p + kx;
                        if (oy < 0 || oy >= OH || ox < 0 || ox >= OW) continue;
                        for (int ci = 0; ci < CI; ci++) {
                            const double v = x[((int64_t)(n * H + iy) * W + ix) * CI + ci];
                            for (int co = 0; co < CO; co++)
                                acc[((size_t)(n * OH + oy) * OW + ox) * CO + co] +=
                                    v * w[((int64_t)(ky * K + kx) * CI + ci) * CO + co];
                        }
                    }
    Tensor o = make_tensor({N, OH, OW, CO});
    for (size_t i = 0; i < acc.size(); i++) o[(int64_t)i] = (float)acc[i];
    return o;
}

Tensor ref_dense(const Tensor &x, const Tensor &w, const Tensor *bias, Act act) {
    const int K = w.shape[0], M = w.shape[1];
    const int64_t rows = x.size() / K;
    Shape os = x.shape;
    os.back() = M;
    Tensor o = make_tensor(os);
    for (int64_t r = 0; r < rows; r++)
        for (int m = 0; m < M; m++) {
            double s = bias ? (*bias)[m] : 0.0;
            for (int k = 0; k < K; k++) s += (double)x[r * K + k] * w[(int64_t)k * M + m];
            o[r * M + m] = ref_activate((float)s, act);
        }
    return o;
}

Tensor ref_batch_matmul(const Tensor &a, const Tensor &b) {
    const int B = a.shape[0], N = a.shape[1], K = a.shape[2], M = b.shape[2];
    Tensor o = make_tensor({B, N, M});
    for (int bb = 0; bb < B; bb++)
        for (int i = 0; i < N; i++)
            for (int j = 0; j < M; j++) {
                double s = 0;
                for (int k = 0; k < K; k++)
                    s += (double)a[((int64_t)bb * N + i) * K + k] * b[((int64_t)bb * K + k) * M + j];
                o[((int64_t)bb * N + i) * M + j] = (float)s;
            }
    return o;
}

Tensor ref_binary(const Tensor &a, const Tensor &b, bool is_mul) {
    Tensor o = make_tensor(a.shape);
    for (int64_t i = 0; i < a.size(); i++) o[i] = is_mul ? a[i] * b[i] : a[i] + b[i];
    return o;
}

Tensor ref_unary(const Tensor &x, Act act) {
    Tensor o = make_tensor(x.shape);
    for (int64_t i = 0; i < x.size(); i++) o[i] = ref_activate(x[i], act);
    return o;
}

namespace {
// A tensor seen as [outer, axis, inner] around dimension `axis`.
void around(const Shape &s, int axis, int64_t &outer, int64_t &inner) {
    outer = inner = 1;
    for (int d = 0; d < axis; d++) outer *= s[d];
    for (size_t d = axis + 1; d < s.size(); d++) inner *= s[d];
}
}  // namespace

Tensor ref_concat(const std::vector<const Tensor *> &xs, int axis) {
    Shape os = xs[0]->shape;
    os[axis] = 0;
    for (const Tensor *x : xs) os[axis] += x->shape[axis];
    Tensor o = make_tensor(os);
    int64_t outer, inner;
    around(os, axis, outer, inner);
    int offset = 0;
    for (const Tensor *x : xs) {
        const int len = x->shape[axis];
        for (int64_t p = 0; p < outer; p++)
            for (int a = 0; a < len; a++)
                for (int64_t q = 0; q < inner; q++)
                    o[(p * os[axis] + offset + a) * inner + q] = (*x)[(p * len + a) * inner + q];
        offset += len;
    }
    return o;
}

std::vector<Tensor> ref_split(const Tensor &x, int axis, const std::vector<int> &sizes) {
    int64_t outer, inner;
    around(x.shape, axis, outer, inner);
    std::vector<Tensor> outs;
    int offset = 0;
    for (int len : sizes) {
        Shape s = x.shape;
        s[axis] = len;
        Tensor o = make_tensor(s);
        for (int64_t p = 0; p < outer; p++)
            for (int a = 0; a < len; a++)
                for (int64_t q = 0; q < inner; q++)
                    o[(p * len + a) * inner + q] = x[(p * x.shape[axis] + offset + a) * inner + q];
        offset += len;
        outs.push_back(o);
    }
    return outs;
}

Tensor ref_transpose(const Tensor &x, const std::vector<int> &perm) {
    const size_t r = x.shape.size();
    Shape os(r);
    for (size_t d = 0; d < r; d++) os[d] = x.shape[perm[d]];
    std::vector<int64_t> in_stride(r, 1);
    for (int d = (int)r - 2; d >= 0; d--) in_stride[d] = in_stride[d + 1] * x.shape[d + 1];
    Tensor o = make_tensor(os);
    std::vector<int> idx(r, 0);  // output coordinate
    for (int64_t i = 0; i < o.size(); i++) {
        int64_t src = 0;
        for (size_t d = 0; d < r; d++) src += idx[d] * in_stride[perm[d]];
        o[i] = x[src];
        for (int d = (int)r - 1; d >= 0 && ++idx[d] == os[d]; d--) idx[d] = 0;
    }
    return o;
}

Tensor ref_reshape(const Tensor &x, const Shape &shape) {
    Tensor o = make_tensor(shape);
    std::copy(x.storage->begin(), x.storage->end(), o.storage->begin());
    return o;
}

Tensor ref_pool2d(const Tensor &x, const PoolAttrs &a) {
    const int N = x.shape[0], H = x.shape[1], W = x.shape[2], C = x.shape[3];
    const int k = a.global ? H : a.k, s = a.global ? 1 : a.s, p = a.global ? 0 : a.p;
    const int OH = window_out(H, k, s, p), OW = window_out(W, k, s, p);
    Tensor o = make_tensor({N, OH, OW, C});
    for (int n = 0; n < N; n++)
        for (int oy = 0; oy < OH; oy++)
            for (int ox = 0; ox < OW; ox++)
                for (int c = 0; c < C; c++) {
                    double acc = a.is_max ? -INFINITY : 0.0;
                    for (int ky = 0; ky < k; ky++)
                        for (int kx = 0; kx < k; kx++) {
                            const int iy = oy * s + ky - p, ix = ox * s + kx - p;
                            if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                            const float v = x[((int64_t)(n * H + iy) * W + ix) * C + c];
                            acc = a.is_max ? std::max(acc, (double)v) : acc + v;
                        }
                    o[((int64_t)(n * OH + oy) * OW + ox) * C + c] = (float)(a.is_max ? acc : acc / (k * k));
                }
    return o;
}

Tensor ref_batch_norm(const Tensor &x, const Tensor &gamma, const Tensor &beta, const Tensor &mean,
                      const Tensor &var, float eps) {
    const int C = x.shape.back();
    Tensor o = make_tensor(x.shape);
    for (int64_t i = 0; i < x.size(); i++) {
        const int c = (int)(i % C);
        o[i] = (float)((x[i] - mean[c]) / std::sqrt((double)var[c] + eps) * gamma[c] + beta[c]);
    }
    return o;
}

Tensor ref_softmax(const Tensor &x) {
    const int D = x.shape.back();
    const int64_t rows = x.size() / D;
    Tensor o = make_tensor(x.shape);
    for (int64_t r = 0; r < rows; r++) {
        const float *in = x.data() + r * D;
        double mx = -INFINITY, sum = 0;
        for (int d = 0; d < D; d++) mx = std::max(mx, (double)in[d]);
        for (int d = 0; d < D; d++) sum += std::exp(in[d] - mx);
        for (int d = 0; d < D; d++) o[r * D + d] = (float)(std::exp(in[d] - mx) / sum);
    }
    return o;
}

Tensor ref_layer_norm(const Tensor &x, const Tensor &gamma, const Tensor &beta, float eps) {
    const int D = x.shape.back();
    const int64_t rows = x.size() / D;
    Tensor o = make_tensor(x.shape);
    for (int64_t r = 0; r < rows; r++) {
        const float *in = x.data() + r * D;
        double mean = 0, var = 0;
        for (int d = 0; d < D; d++) mean += in[d];
        mean /= D;
        for (int d = 0; d < D; d++) var += (in[d] - mean) * (in[d] - mean);
        var /= D;
        for (int d = 0; d < D; d++) o[r * D + d] = (float)((in[d] - mean) / std::sqrt(var + eps) * gamma[d] + beta[d]);
    }
    return o;
}

Tensor ref_enlarge(const Tensor &w, int kh, int kw) {
    const int KH = w.shape[0], KW = w.shape[1], CI = w.shape[2], CO = w.shape[3];
    const int oy = (kh - KH) / 2, ox = (kw - KW) / 2;
    Tensor o = make_tensor({kh, kw, CI, CO});
    for (int y = 0; y < KH; y++)
        for (int x = 0; x < KW; x++)
            for (int c = 0; c < CI * CO; c++)
                o[((int64_t)(y + oy) * kw + x + ox) * CI * CO + c] = w[((int64_t)y * KW + x) * CI * CO + c];
    return o;
}

// An NCHW convolution is the NHWC one between layout conversions.
Tensor ref_conv2d_any_layout(const Tensor &x, const Tensor &w, const Tensor *bias, const ConvAttrs &a,
                             const Tensor *residual) {
    if (a.layout == Layout::kNHWC) return ref_conv2d(x, w, bias, a, residual);
    const std::vector<int> to_nhwc = layout_conversion_perm(Layout::kNCHW, Layout::kNHWC);
    const Tensor x_nhwc = ref_transpose(x, to_nhwc);
    Tensor residual_nhwc;
    if (residual) residual_nhwc = ref_transpose(*residual, to_nhwc);
    const Tensor o = ref_conv2d(x_nhwc, w, bias, a, residual ? &residual_nhwc : nullptr);
    return ref_transpose(o, layout_conversion_perm(Layout::kNHWC, Layout::kNCHW));
}

void run_reference(const Graph &g, TensorMap &v) {
    for (const Node &n : g.nodes) {
        const std::string where = "node '" + n.name + "' (" + n.op + ")";
        auto in = [&](size_t i) -> const Tensor & { return v.at(n.inputs[i]); };
        auto opt = [&](size_t i) -> const Tensor * { return n.inputs.size() > i ? &v.at(n.inputs[i]) : nullptr; };
        Tensor out;
        const std::string &op = n.op;
        if (op == "conv2d") out = ref_conv2d_any_layout(in(0), in(1), opt(2), conv_attrs(n, where), opt(3));
        else if (op == "conv2d_transpose") out = ref_conv2d_transpose(in(0), in(1), conv_transpose_attrs(n, where));
        else if (op == "dense" || op == "matmul") out = ref_dense(in(0), in(1), opt(2), dense_attrs(n, where).act);
        else if (op == "batch_matmul") out = ref_batch_matmul(in(0), in(1));
        else if (op == "add" || op == "mul") out = ref_binary(in(0), in(1), op == "mul");
        else if (op == "relu" || op == "relu6" || op == "gelu" || op == "sigmoid") out = ref_unary(in(0), parse_act(op, where));
        else if (op == "concat") {
            std::vector<const Tensor *> xs;
            for (size_t i = 0; i < n.inputs.size(); i++) xs.push_back(&in(i));
            out = ref_concat(xs, axis_attrs(n, where, (int)in(0).shape.size()).axis);
        } else if (op == "split") {
            AxisAttrs a = axis_attrs(n, where, (int)in(0).shape.size());
            std::vector<Tensor> parts = ref_split(in(0), a.axis, a.sizes);
            for (size_t k = 0; k < parts.size(); k++) v[n.outputs[k]] = parts[k];
            continue;
        } else if (op == "transpose") out = ref_transpose(in(0), transpose_attrs(n, where).perm);
        else if (op == "reshape") out = ref_reshape(in(0), reshape_attrs(n, where, in(0).shape).shape);
        else if (op == "max_pool2d" || op == "avg_pool2d") out = ref_pool2d(in(0), pool_attrs(n, where));
        else if (op == "batch_norm") out = ref_batch_norm(in(0), in(1), in(2), in(3), in(4), norm_attrs(n, where).eps);
        else if (op == "softmax") out = ref_softmax(in(0));
        else if (op == "layer_norm") out = ref_layer_norm(in(0), in(1), in(2), norm_attrs(n, where).eps);
        else if (op == "enlarge") {
            EnlargeAttrs a = enlarge_attrs(n, where);
            out = ref_enlarge(in(0), a.kh, a.kw);
        } else throw GraphError(where + ": no reference for this operator");
        v[n.outputs[0]] = out;
    }
}

}  // namespace ansor_graph
