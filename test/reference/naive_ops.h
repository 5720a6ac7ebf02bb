// Plain loop references of the operator suite (generators/ops/*.cpp).
// Every buffer has the generator's layout (docs/operators.md): Halide
// dimension 0 is the innermost, so a NHWC tensor is a buffer (C, W, H, N).
// Sizes come from the buffers' extents; `out` must already have the
// output's shape. Sums are accumulated in double.
#pragma once

#include "HalideBuffer.h"

namespace ansor_ref {

using Buf = Halide::Runtime::Buffer<float>;

// input (CI, L, N), weight (CO, CI, k), out (CO, OL, N)
void c1d(const Buf &input, const Buf &weight, Buf &out, int s, int p);

// input (CI, W, H, N), weight (CO, CI/groups, kw, kh), out (CO, OW, OH, N).
// c2d, grp and dil are this with groups = 1 / dilation = 1 where absent.
void conv2d(const Buf &input, const Buf &weight, Buf &out, int s, int p, int dilation, int groups);
void c2d(const Buf &input, const Buf &weight, Buf &out, int s, int p);
void grp(const Buf &input, const Buf &weight, Buf &out, int s, int p, int groups);
void dil(const Buf &input, const Buf &weight, Buf &out, int s, int p, int dilation);

// input (CI, W, H, D, N), weight (CO, CI, kw, kh, kd), out (CO, OW, OH, OD, N)
void c3d(const Buf &input, const Buf &weight, Buf &out, int s, int p);

// lhs (K, N, B), rhs (M, K, B), out (M, N, B)
void gmm(const Buf &lhs, const Buf &rhs, Buf &out);

// input (C, W, H, N), weight (C, kw, kh), out (C, OW, OH, N)
void dep(const Buf &input, const Buf &weight, Buf &out, int s, int p);

// input (CI, W, H, N), weight (CO, CI, kw, kh), out (CO, OW, OH, N),
// OH = (H - 1)*s - 2p + k
void t2d(const Buf &input, const Buf &weight, Buf &out, int s, int p);

// input (m, i, CI, W, H, N), weight (j, m, CO, CI, kw, kh), out (j, i, CO, OW, OH, N)
void cap(const Buf &input, const Buf &weight, Buf &out, int s, int p);

// input (N, M, B), out (B)
void nrm(const Buf &input, Buf &out);

// c2d, then out = max(conv * scale[co] + shift[co], 0); scale, shift (CO)
void conv_layer(const Buf &input, const Buf &weight, const Buf &scale, const Buf &shift,
                Buf &out, int s, int p);

// query, key (dim, heads, seq, batch), out (j, i, heads, batch):
// softmax over j of sum_d query(d, h, i, b) * key(d, h, j, b)
void tbs(const Buf &query, const Buf &key, Buf &out);

}  // namespace ansor_ref
