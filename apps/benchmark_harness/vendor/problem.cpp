#include "problem.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ansor_vendor {

namespace {

std::vector<int> parse_ints(const std::string &spec, size_t count, const char *names) {
    std::vector<int> out;
    std::stringstream in(spec);
    std::string item;
    while (std::getline(in, item, ',')) {
        size_t used = 0;
        int v = 0;
        try {
            v = std::stoi(item, &used);
        } catch (const std::exception &) {
            used = 0;
        }
        if (used != item.size() || item.empty()) {
            throw std::invalid_argument("\"" + item + "\" in \"" + spec + "\" is not an integer (expected " + names + ")");
        }
        out.push_back(v);
    }
    if (out.size() != count) {
        throw std::invalid_argument("\"" + spec + "\" has " + std::to_string(out.size()) + " values; expected " +
                                    std::to_string(count) + ": " + names);
    }
    return out;
}

}  // namespace

std::vector<size_t> Problem::input_sizes() const {
    if (kind == Kind::Gemm) {
        const GemmProblem &g = gemm;
        return {(size_t)g.batch * g.rows * g.depth, (size_t)g.batch * g.depth * g.cols};
    }
    const ConvProblem &c = conv;
    std::vector<size_t> s = {(size_t)c.n * c.h * c.w * c.ci, (size_t)c.k * c.k * c.ci * c.co};
    if (c.bias) s.push_back((size_t)c.co);
    return s;
}

size_t Problem::output_size() const {
    if (kind == Kind::Gemm) return (size_t)gemm.batch * gemm.rows * gemm.cols;
    return (size_t)conv.n * conv.out_h() * conv.out_w() * conv.co;
}

double Problem::flops() const {
    if (kind == Kind::Gemm) return 2.0 * gemm.batch * gemm.rows * gemm.cols * gemm.depth;
    return 2.0 * conv.n * conv.out_h() * conv.out_w() * conv.co * conv.k * conv.k * conv.ci;
}

std::string Problem::describe() const {
    std::ostringstream s;
    if (kind == Kind::Gemm) {
        s << "gemm batch=" << gemm.batch << " rows=" << gemm.rows << " cols=" << gemm.cols << " depth=" << gemm.depth;
    } else {
        s << "conv N=" << conv.n << " H=" << conv.h << " W=" << conv.w << " CI=" << conv.ci << " CO=" << conv.co
          << " k=" << conv.k << " s=" << conv.stride << " p=" << conv.pad << (conv.bias ? " +bias" : "")
          << (conv.relu ? " +relu" : "");
    }
    return s.str();
}

Problem parse_gemm(const std::string &spec) {
    std::vector<int> v = parse_ints(spec, 4, "batch,rows,cols,depth");
    for (int x : v) {
        if (x <= 0) throw std::invalid_argument("gemm sizes must be positive: \"" + spec + "\"");
    }
    Problem p;
    p.kind = Problem::Kind::Gemm;
    p.gemm = {v[0], v[1], v[2], v[3]};
    return p;
}

Problem parse_conv(const std::string &spec, bool bias, bool relu) {
    std::vector<int> v = parse_ints(spec, 8, "N,H,W,CI,CO,k,s,p");
    Problem p;
    p.kind = Problem::Kind::Conv;
    p.conv = {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], bias, relu};
    for (int i = 0; i < 7; i++) {
        if (v[i] <= 0) throw std::invalid_argument("conv sizes N,H,W,CI,CO,k,s must be positive: \"" + spec + "\"");
    }
    if (v[7] < 0) throw std::invalid_argument("conv padding must be >= 0: \"" + spec + "\"");
    if (p.conv.out_h() <= 0 || p.conv.out_w() <= 0) {
        throw std::invalid_argument("conv \"" + spec + "\" has an empty output");
    }
    return p;
}

void naive_reference(const Problem &p, const std::vector<std::vector<float>> &in, std::vector<float> &out) {
    out.assign(p.output_size(), 0.f);
    if (p.kind == Problem::Kind::Gemm) {
        const GemmProblem &g = p.gemm;
        for (int b = 0; b < g.batch; b++) {
            const float *a = in[0].data() + (size_t)b * g.rows * g.depth;
            const float *bm = in[1].data() + (size_t)b * g.depth * g.cols;
            float *c = out.data() + (size_t)b * g.rows * g.cols;
            std::vector<double> row(g.cols);
            for (int i = 0; i < g.rows; i++) {
                std::fill(row.begin(), row.end(), 0.0);
                for (int k = 0; k < g.depth; k++) {
                    double aik = a[(size_t)i * g.depth + k];
                    const float *brow = bm + (size_t)k * g.cols;
                    for (int j = 0; j < g.cols; j++) row[j] += aik * brow[j];
                }
                for (int j = 0; j < g.cols; j++) c[(size_t)i * g.cols + j] = (float)row[j];
            }
        }
        return;
    }
    const ConvProblem &c = p.conv;
    const int oh = c.out_h(), ow = c.out_w();
    std::vector<double> acc(c.co);
    for (int n = 0; n < c.n; n++) {
        for (int y = 0; y < oh; y++) {
            for (int x = 0; x < ow; x++) {
                for (int o = 0; o < c.co; o++) acc[o] = c.bias ? in[2][o] : 0.0;
                for (int ky = 0; ky < c.k; ky++) {
                    int iy = y * c.stride + ky - c.pad;
                    if (iy < 0 || iy >= c.h) continue;
                    for (int kx = 0; kx < c.k; kx++) {
                        int ix = x * c.stride + kx - c.pad;
                        if (ix < 0 || ix >= c.w) continue;
                        const float *pix = in[0].data() + (((size_t)n * c.h + iy) * c.w + ix) * c.ci;
                        const float *wt = in[1].data() + ((size_t)ky * c.k + kx) * c.ci * c.co;
                        for (int i = 0; i < c.ci; i++) {
                            double v = pix[i];
                            const float *wrow = wt + (size_t)i * c.co;
                            for (int o = 0; o < c.co; o++) acc[o] += v * wrow[o];
                        }
                    }
                }
                float *dst = out.data() + (((size_t)n * oh + y) * ow + x) * c.co;
                for (int o = 0; o < c.co; o++) dst[o] = (float)(c.relu ? std::max(acc[o], 0.0) : acc[o]);
            }
        }
    }
}

size_t im2col_size(const ConvProblem &c) {
    return (size_t)c.n * c.out_h() * c.out_w() * c.k * c.k * c.ci;
}

void im2col(const ConvProblem &c, const float *input, float *columns) {
    const int oh = c.out_h(), ow = c.out_w();
    const size_t row_len = (size_t)c.k * c.k * c.ci;
    // Rows are independent; the libraries' own threads do the product, and
    // this loop gets the same two threads so the unfold is not the bottleneck.
#pragma omp parallel for collapse(2)
    for (int n = 0; n < c.n; n++) {
        for (int y = 0; y < oh; y++) {
            for (int x = 0; x < ow; x++) {
                float *row = columns + (((size_t)n * oh + y) * ow + x) * row_len;
                for (int ky = 0; ky < c.k; ky++) {
                    int iy = y * c.stride + ky - c.pad;
                    for (int kx = 0; kx < c.k; kx++) {
                        int ix = x * c.stride + kx - c.pad;
                        float *dst = row + ((size_t)ky * c.k + kx) * c.ci;
                        if (iy < 0 || iy >= c.h || ix < 0 || ix >= c.w) {
                            std::fill(dst, dst + c.ci, 0.f);
                        } else {
                            const float *src = input + (((size_t)n * c.h + iy) * c.w + ix) * c.ci;
                            std::copy(src, src + c.ci, dst);
                        }
                    }
                }
            }
        }
    }
}

void apply_epilogue(const ConvProblem &c, const float *bias, float *out) {
    if (!c.bias && !c.relu) return;
    const size_t pixels = (size_t)c.n * c.out_h() * c.out_w();
#pragma omp parallel for
    for (size_t p = 0; p < pixels; p++) {
        float *row = out + p * c.co;
        for (int o = 0; o < c.co; o++) {
            float v = row[o] + (c.bias ? bias[o] : 0.f);
            row[o] = c.relu ? std::max(v, 0.f) : v;
        }
    }
}

double max_relative_error(const std::vector<float> &got, const std::vector<float> &want) {
    if (got.size() != want.size()) return INFINITY;
    double scale = 0;
    for (float w : want) {
        if (std::isfinite(w)) scale = std::max(scale, (double)std::fabs(w));
    }
    scale = std::max(scale, 1e-30);
    double worst = 0;
    for (size_t i = 0; i < got.size(); i++) {
        double a = got[i], b = want[i];
        if (std::isnan(a) && std::isnan(b)) continue;
        if (!std::isfinite(a) || !std::isfinite(b)) {
            if (a != b) return INFINITY;
            continue;
        }
        worst = std::max(worst, std::fabs(a - b) / std::max(std::fabs(b), 1e-3 * scale));
    }
    return worst;
}

}  // namespace ansor_vendor
