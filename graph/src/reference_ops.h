#pragma once
// The reference: every operator as plain loops over row-major tensors,
// written to be obviously correct rather than fast. Accumulation is in
// double, so the reference is the more accurate side of every comparison.
#include "op_attrs.h"
#include "tensor_values.h"

namespace ansor_graph {

float ref_activate(float x, Act a);  // GELU in BERT's tanh form, as the generators

// x [N,H,W,CI], w [KH,KW,CI/G,CO], bias [CO] or null.
// act(conv + bias + residual); bias and residual may be null.
Tensor ref_conv2d(const Tensor &x, const Tensor &w, const Tensor *bias, const ConvAttrs &a,
                  const Tensor *residual = nullptr);
// x [N,H,W,CI], w [K,K,CI,CO]: out[n, ih*s - p + ky, iw*s - p + kx, co] += x[n, ih, iw, ci] * w[ky, kx, ci, co].
Tensor ref_conv2d_transpose(const Tensor &x, const Tensor &w, const ConvTransposeAttrs &a);
// x [..., K], w [K, M], bias [M] or null.
Tensor ref_dense(const Tensor &x, const Tensor &w, const Tensor *bias, Act act);
// a [B,N,K], b [B,K,M].
Tensor ref_batch_matmul(const Tensor &a, const Tensor &b);
Tensor ref_binary(const Tensor &a, const Tensor &b, bool is_mul);
Tensor ref_unary(const Tensor &x, Act act);
Tensor ref_concat(const std::vector<const Tensor *> &xs, int axis);
std::vector<Tensor> ref_split(const Tensor &x, int axis, const std::vector<int> &sizes);
Tensor ref_transpose(const Tensor &x, const std::vector<int> &perm);
Tensor ref_reshape(const Tensor &x, const Shape &shape);  // a copy
// x [N,H,W,C]; max ignores padding, average divides by k*k (padding counts as 0).
Tensor ref_pool2d(const Tensor &x, const PoolAttrs &a);
// Per channel (the last dim): (x - mean) / sqrt(var + eps) * gamma + beta.
Tensor ref_batch_norm(const Tensor &x, const Tensor &gamma, const Tensor &beta, const Tensor &mean,
                      const Tensor &var, float eps);
Tensor ref_softmax(const Tensor &x);  // over the last dim
Tensor ref_layer_norm(const Tensor &x, const Tensor &gamma, const Tensor &beta, float eps);  // over the last dim
// w [KH,KW,CI,CO] zero-padded, centred, to [kh,kw,CI,CO].
Tensor ref_enlarge(const Tensor &w, int kh, int kw);

// Runs every node of `g` on `values` (inputs and weights), adding every
// tensor the graph computes to it.
void run_reference(const Graph &g, TensorMap &values);

}  // namespace ansor_graph
