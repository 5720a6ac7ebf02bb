#include "naive_ops.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ansor_ref {

namespace {

int extent(const Buf &b, int d) { return b.dim(d).extent(); }

// Input coordinate of output position `o`, kernel tap `t`; false if it
// falls into the zero padding.
bool tap(int o, int t, int s, int p, int dilation, int size, int *i) {
    *i = o * s + t * dilation - p;
    return *i >= 0 && *i < size;
}

}  // namespace

void c1d(const Buf &input, const Buf &weight, Buf &out, int s, int p) {
    const int CI = extent(input, 0), L = extent(input, 1), K = extent(weight, 2);
    for (int n = 0; n < extent(out, 2); n++)
        for (int x = 0; x < extent(out, 1); x++)
            for (int co = 0; co < extent(out, 0); co++) {
                double sum = 0;
                for (int kx = 0; kx < K; kx++) {
                    int ix;
                    if (!tap(x, kx, s, p, 1, L, &ix)) continue;
                    for (int ci = 0; ci < CI; ci++) sum += (double)input(ci, ix, n) * weight(co, ci, kx);
                }
                out(co, x, n) = (float)sum;
            }
}

void conv2d(const Buf &input, const Buf &weight, Buf &out, int s, int p, int dilation, int groups) {
    const int W = extent(input, 1), H = extent(input, 2);
    const int CIG = extent(weight, 1), K = extent(weight, 2);
    const int COG = extent(out, 0) / groups;
    for (int n = 0; n < extent(out, 3); n++)
        for (int y = 0; y < extent(out, 2); y++)
            for (int x = 0; x < extent(out, 1); x++)
                for (int co = 0; co < extent(out, 0); co++) {
                    const int g = co / COG;
                    double sum = 0;
                    for (int ky = 0; ky < K; ky++)
                        for (int kx = 0; kx < K; kx++) {
                            int iy, ix;
                            if (!tap(y, ky, s, p, dilation, H, &iy) || !tap(x, kx, s, p, dilation, W, &ix)) continue;
                            for (int c = 0; c < CIG; c++)
                                sum += (double)input(g * CIG + c, ix, iy, n) * weight(co, c, kx, ky);
                        }
                    out(co, x, y, n) = (float)sum;
                }
}

void c2d(const Buf &input, const Buf &weight, Buf &out, int s, int p) {
    conv2d(input, weight, out, s, p, 1, 1);
}

void grp(const Buf &input, const Buf &weight, Buf &out, int s, int p, int groups) {
    conv2d(input, weight, out, s, p, 1, groups);
}

void dil(const Buf &input, const Buf &weight, Buf &out, int s, int p, int dilation) {
    conv2d(input, weight, out, s, p, dilation, 1);
}

void c3d(const Buf &input, const Buf &weight, Buf &out, int s, int p) {
    const int CI = extent(input, 0), W = extent(input, 1), H = extent(input, 2), D = extent(input, 3);
    const int K = extent(weight, 2);
    for (int n = 0; n < extent(out, 4); n++)
        for (int z = 0; z < extent(out, 3); z++)
            for (int y = 0; y < extent(out, 2); y++)
                for (int x = 0; x < extent(out, 1); x++)
                    for (int co = 0; co < extent(out, 0); co++) {
                        double sum = 0;
                        for (int kz = 0; kz < K; kz++)
                            for (int ky = 0; ky < K; ky++)
                                for (int kx = 0; kx < K; kx++) {
                                    int iz, iy, ix;
                                    if (!tap(z, kz, s, p, 1, D, &iz) || !tap(y, ky, s, p, 1, H, &iy) ||
                                        !tap(x, kx, s, p, 1, W, &ix)) continue;
                                    for (int ci = 0; ci < CI; ci++)
                                        sum += (double)input(ci, ix, iy, iz, n) * weight(co, ci, kx, ky, kz);
                                }
                        out(co, x, y, z, n) = (float)sum;
                    }
}

void gmm(const Buf &lhs, const Buf &rhs, Buf &out) {
    const int K = extent(lhs, 0);
    for (int b = 0; b < extent(out, 2); b++)
        for (int i = 0; i < extent(out, 1); i++)
            for (int j = 0; j < extent(out, 0); j++) {
                double sum = 0;
                for (int k = 0; k < K; k++) sum += (double)lhs(k, i, b) * rhs(j, k, b);
                out(j, i, b) = (float)sum;
            }
}

void dep(const Buf &input, const Buf &weight, Buf &out, int s, int p) {
    const int W = extent(input, 1), H = extent(input, 2), K = extent(weight, 1);
    for (int n = 0; n < extent(out, 3); n++)
        for (int y = 0; y < extent(out, 2); y++)
            for (int x = 0; x < extent(out, 1); x++)
                for (int c = 0; c < extent(out, 0); c++) {
                    double sum = 0;
                    for (int ky = 0; ky < K; ky++)
                        for (int kx = 0; kx < K; kx++) {
                            int iy, ix;
                            if (!tap(y, ky, s, p, 1, H, &iy) || !tap(x, kx, s, p, 1, W, &ix)) continue;
                            sum += (double)input(c, ix, iy, n) * weight(c, kx, ky);
                        }
                    out(c, x, y, n) = (float)sum;
                }
}

void t2d(const Buf &input, const Buf &weight, Buf &out, int s, int p) {
    // Scatter: input pixel (iy, ix) with tap (ky, kx) lands on
    // output (iy*s - p + ky, ix*s - p + kx).
    const int CI = extent(input, 0), W = extent(input, 1), H = extent(input, 2);
    const int CO = extent(out, 0), OW = extent(out, 1), OH = extent(out, 2), K = extent(weight, 2);
    std::vector<double> acc((size_t)out.number_of_elements(), 0.0);
    auto at = [&](int co, int x, int y, int n) -> double & {
        return acc[(((size_t)n * OH + y) * OW + x) * CO + co];
    };
    for (int n = 0; n < extent(input, 3); n++)
        for (int iy = 0; iy < H; iy++)
            for (int ix = 0; ix < W; ix++)
                for (int ky = 0; ky < K; ky++)
                    for (int kx = 0; kx < K; kx++) {
                        const int y = iy * s - p + ky, x = ix * s - p + kx;
                        if (y < 0 || y >= OH || x < 0 || x >= OW) continue;
                        for (int ci = 0; ci < CI; ci++)
                            for (int co = 0; co < CO; co++)
                                at(co, x, y, n) += (double)input(ci, ix, iy, n) * weight(co, ci, kx, ky);
                    }
    for (int n = 0; n < extent(out, 3); n++)
        for (int y = 0; y < OH; y++)
            for (int x = 0; x < OW; x++)
                for (int co = 0; co < CO; co++) out(co, x, y, n) = (float)at(co, x, y, n);
}

void cap(const Buf &input, const Buf &weight, Buf &out, int s, int p) {
    const int C = extent(input, 0), CI = extent(input, 2), W = extent(input, 3), H = extent(input, 4);
    const int K = extent(weight, 4);
    for (int n = 0; n < extent(out, 5); n++)
        for (int y = 0; y < extent(out, 4); y++)
            for (int x = 0; x < extent(out, 3); x++)
                for (int co = 0; co < extent(out, 2); co++)
                    for (int i = 0; i < C; i++)
                        for (int j = 0; j < C; j++) {
                            double sum = 0;
                            for (int ky = 0; ky < K; ky++)
                                for (int kx = 0; kx < K; kx++) {
                                    int iy, ix;
                                    if (!tap(y, ky, s, p, 1, H, &iy) || !tap(x, kx, s, p, 1, W, &ix)) continue;
                                    for (int ci = 0; ci < CI; ci++)
                                        for (int m = 0; m < C; m++)
                                            sum += (double)input(m, i, ci, ix, iy, n) * weight(j, m, co, ci, kx, ky);
                                }
                            out(j, i, co, x, y, n) = (float)sum;
                        }
}

void nrm(const Buf &input, Buf &out) {
    for (int b = 0; b < extent(out, 0); b++) {
        double sum = 0;
        for (int m = 0; m < extent(input, 1); m++)
            for (int c = 0; c < extent(input, 0); c++) sum += (double)input(c, m, b) * input(c, m, b);
        out(b) = (float)std::sqrt(sum);
    }
}

void conv_layer(const Buf &input, const Buf &weight, const Buf &scale, const Buf &shift,
                Buf &out, int s, int p) {
    c2d(input, weight, out, s, p);
    // Batch norm on the float conv result, as the generator does.
    for (int n = 0; n < extent(out, 3); n++)
        for (int y = 0; y < extent(out, 2); y++)
            for (int x = 0; x < extent(out, 1); x++)
                for (int co = 0; co < extent(out, 0); co++)
                    out(co, x, y, n) = (float)std::max((double)out(co, x, y, n) * scale(co) + shift(co), 0.0);
}

void tbs(const Buf &query, const Buf &key, Buf &out) {
    const int D = extent(query, 0), S = extent(query, 2);
    std::vector<double> row(S);
    for (int b = 0; b < extent(out, 3); b++)
        for (int h = 0; h < extent(out, 2); h++)
            for (int i = 0; i < S; i++) {
                for (int j = 0; j < S; j++) {
                    double dot = 0;
                    for (int d = 0; d < D; d++) dot += (double)query(d, h, i, b) * key(d, h, j, b);
                    row[j] = dot;
                }
                const double mx = *std::max_element(row.begin(), row.end());
                double total = 0;
                for (int j = 0; j < S; j++) total += std::exp(row[j] - mx);
                for (int j = 0; j < S; j++) out(j, i, h, b) = (float)(std::exp(row[j] - mx) / total);
            }
}

}  // namespace ansor_ref
