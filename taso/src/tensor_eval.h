// Concrete evaluation of the operators, on int64 (fingerprints) or double
// (the numeric re-check and the substitution checker).
//
// Integer domain: plain int64 with two's-complement wrap-around (done in
// uint64, so it is defined). Inputs are drawn from +-{1,2,3}; tensors are
// a few elements wide, so within four operators no value comes near 2^63
// and the ordering relu needs is the true one. Wrap-around only keeps an
// out-of-range experiment deterministic instead of undefined.
#pragma once

#include "ops.h"

#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

namespace taso {

template <class V>
struct Tensor {
    std::vector<int64_t> shape;  // empty: a scalar
    std::vector<V> data;         // row-major
};

template <class V>
struct Arith {
    static V add(V a, V b) { return a + b; }
    static V mul(V a, V b) { return a * b; }
};
template <>
struct Arith<int64_t> {
    static int64_t add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
    static int64_t mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
};

inline int64_t element_count(const std::vector<int64_t> &shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

// Random values: integers in +-{1, 2, 3} for int64 (no zeros, which would
// make relu and ewmul agree with too much), uniform [-1, 1] for double.
template <class V>
Tensor<V> random_tensor(const std::vector<int64_t> &shape, std::mt19937_64 &rng) {
    Tensor<V> t{shape, std::vector<V>((size_t)element_count(shape))};
    for (V &v : t.data) {
        if constexpr (std::is_integral_v<V>)
            v = (V)((int64_t)(1 + rng() % 3) * (rng() % 2 ? 1 : -1));
        else
            v = (V)(std::uniform_real_distribution<double>(-1.0, 1.0)(rng));
    }
    return t;
}

// The identity convolution kernel [c, c, 1, 1].
template <class V>
Tensor<V> identity_kernel(int64_t channels) {
    Tensor<V> t{{channels, channels, 1, 1}, std::vector<V>((size_t)(channels * channels), V(0))};
    for (int64_t i = 0; i < channels; i++) t.data[(size_t)(i * channels + i)] = V(1);
    return t;
}

// One operator on concrete tensors. split_left is the size of split's first
// part (from the split tree). Throws std::runtime_error on shape mismatch.
template <class V>
Tensor<V> eval_op(OpKind kind, const OpAttrs &attrs, const std::vector<const Tensor<V> *> &in, int port,
                  int64_t split_left = 0) {
    using A = Arith<V>;
    auto need = [&](bool ok, const char *what) {
        if (!ok) throw std::runtime_error(std::string(op_name(kind)) + ": " + what);
    };
    switch (kind) {
    case OpKind::Matmul: {
        const auto &a = *in[0], &b = *in[1];
        need(a.shape.size() == 2 && b.shape.size() == 2 && a.shape[1] == b.shape[0], "shapes");
        int64_t M = a.shape[0], K = a.shape[1], N = b.shape[1];
        Tensor<V> r{{M, N}, std::vector<V>((size_t)(M * N), V(0))};
        for (int64_t i = 0; i < M; i++)
            for (int64_t k = 0; k < K; k++)
                for (int64_t j = 0; j < N; j++)
                    r.data[i * N + j] = A::add(r.data[i * N + j], A::mul(a.data[i * K + k], b.data[k * N + j]));
        return r;
    }
    case OpKind::EwAdd:
    case OpKind::EwMul: {
        const auto &a = *in[0], &b = *in[1];
        need(a.shape == b.shape, "shapes");
        Tensor<V> r = a;
        for (size_t i = 0; i < r.data.size(); i++)
            r.data[i] = kind == OpKind::EwAdd ? A::add(a.data[i], b.data[i]) : A::mul(a.data[i], b.data[i]);
        return r;
    }
    case OpKind::ScalarMul: {
        need(in[1]->data.size() == 1, "scalar operand");
        Tensor<V> r = *in[0];
        for (V &v : r.data) v = A::mul(v, in[1]->data[0]);
        return r;
    }
    case OpKind::Relu: {
        Tensor<V> r = *in[0];
        for (V &v : r.data) v = v < V(0) ? V(0) : v;
        return r;
    }
    case OpKind::Transpose: {
        const auto &a = *in[0];
        need(a.shape.size() == 2, "rank");
        int64_t M = a.shape[0], N = a.shape[1];
        Tensor<V> r{{N, M}, std::vector<V>(a.data.size())};
        for (int64_t i = 0; i < M; i++)
            for (int64_t j = 0; j < N; j++) r.data[j * M + i] = a.data[i * N + j];
        return r;
    }
    case OpKind::Concat:
    case OpKind::Split: {
        // Both walk the tensor as [outer, axis, inner].
        const auto &a = *in[0];
        int ax = attrs.axis;
        need(ax >= 0 && ax < (int)a.shape.size(), "axis");
        int64_t outer = 1, inner = 1;
        for (int i = 0; i < ax; i++) outer *= a.shape[i];
        for (size_t i = ax + 1; i < a.shape.size(); i++) inner *= a.shape[i];
        if (kind == OpKind::Concat) {
            const auto &b = *in[1];
            need(a.shape.size() == b.shape.size(), "rank");
            for (size_t i = 0; i < a.shape.size(); i++) need((int)i == ax || a.shape[i] == b.shape[i], "shapes");
            Tensor<V> r{a.shape, {}};
            r.shape[ax] += b.shape[ax];
            for (int64_t o = 0; o < outer; o++) {
                r.data.insert(r.data.end(), a.data.begin() + o * a.shape[ax] * inner,
                              a.data.begin() + (o + 1) * a.shape[ax] * inner);
                r.data.insert(r.data.end(), b.data.begin() + o * b.shape[ax] * inner,
                              b.data.begin() + (o + 1) * b.shape[ax] * inner);
            }
            return r;
        }
        need(split_left > 0 && split_left < a.shape[ax], "split point");
        int64_t lo = port == 0 ? 0 : split_left, len = port == 0 ? split_left : a.shape[ax] - split_left;
        Tensor<V> r{a.shape, {}};
        r.shape[ax] = len;
        for (int64_t o = 0; o < outer; o++) {
            auto base = a.data.begin() + (o * a.shape[ax] + lo) * inner;
            r.data.insert(r.data.end(), base, base + len * inner);
        }
        return r;
    }
    case OpKind::Conv2d: {
        const auto &x = *in[0], &w = *in[1];
        need(x.shape.size() == 4 && w.shape.size() == 4 && x.shape[1] == w.shape[1], "shapes");
        int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3];
        int64_t O = w.shape[0], KH = w.shape[2], KW = w.shape[3], s = attrs.stride;
        bool same = attrs.padding == Padding::Same;
        int64_t ph = same ? KH / 2 : 0, pw = same ? KW / 2 : 0;
        int64_t OH = same ? (H - 1) / s + 1 : (H - KH) / s + 1;
        int64_t OW = same ? (W - 1) / s + 1 : (W - KW) / s + 1;
        need(OH > 0 && OW > 0, "kernel larger than the input");
        Tensor<V> r{{N, O, OH, OW}, std::vector<V>((size_t)(N * O * OH * OW), V(0))};
        for (int64_t n = 0; n < N; n++)
            for (int64_t o = 0; o < O; o++)
                for (int64_t oh = 0; oh < OH; oh++)
                    for (int64_t ow = 0; ow < OW; ow++) {
                        V acc(0);
                        for (int64_t c = 0; c < C; c++)
                            for (int64_t kh = 0; kh < KH; kh++) {
                                int64_t ih = oh * s + kh - ph;
                                if (ih < 0 || ih >= H) continue;
                                for (int64_t kw = 0; kw < KW; kw++) {
                                    int64_t iw = ow * s + kw - pw;
                                    if (iw < 0 || iw >= W) continue;
                                    acc = A::add(acc, A::mul(x.data[((n * C + c) * H + ih) * W + iw],
                                                             w.data[((o * C + c) * KH + kh) * KW + kw]));
                                }
                            }
                        if (attrs.activation == Activation::Relu && acc < V(0)) acc = V(0);
                        r.data[((n * O + o) * OH + oh) * OW + ow] = acc;
                    }
        return r;
    }
    case OpKind::Conv2dBias:
    case OpKind::MatmulBias: {
        // The unbiased operator without activation, then the bias along
        // axis 1 (channels of [n,o,h,w], columns of [m,n]), then the activation.
        OpAttrs plain_attrs = attrs;
        plain_attrs.activation = Activation::None;
        OpKind plain = kind == OpKind::Conv2dBias ? OpKind::Conv2d : OpKind::Matmul;
        Tensor<V> r = eval_op<V>(plain, plain_attrs, {in[0], in[1]}, 0);
        const auto &b = *in[2];
        need(b.shape.size() == 1 && b.shape[0] == r.shape[1], "bias length");
        int64_t channels = r.shape[1], inner = 1;
        for (size_t i = 2; i < r.shape.size(); i++) inner *= r.shape[i];
        for (size_t i = 0; i < r.data.size(); i++) {
            V v = A::add(r.data[i], b.data[(size_t)(((int64_t)i / inner) % channels)]);
            if (kind == OpKind::Conv2dBias && attrs.activation == Activation::Relu && v < V(0)) v = V(0);
            r.data[i] = v;
        }
        return r;
    }
    case OpKind::Conv2dBiasAdd: {
        // The biased convolution without activation, the residual, then the activation.
        OpAttrs plain_attrs = attrs;
        plain_attrs.activation = Activation::None;
        Tensor<V> r = eval_op<V>(OpKind::Conv2dBias, plain_attrs, {in[0], in[1], in[2]}, 0);
        const auto &res = *in[3];
        need(res.shape == r.shape, "residual shape");
        for (size_t i = 0; i < r.data.size(); i++) {
            V v = A::add(r.data[i], res.data[i]);
            if (attrs.activation == Activation::Relu && v < V(0)) v = V(0);
            r.data[i] = v;
        }
        return r;
    }
    case OpKind::Enlarge: {
        const auto &w = *in[0];
        need(w.shape.size() == 4 && w.shape[2] == 1 && w.shape[3] == 1, "1x1 kernel");
        int64_t K = attrs.kernel, O = w.shape[0], C = w.shape[1];
        Tensor<V> r{{O, C, K, K}, std::vector<V>((size_t)(O * C * K * K), V(0))};
        for (int64_t i = 0; i < O * C; i++) r.data[(size_t)(i * K * K + (K / 2) * K + K / 2)] = w.data[i];
        return r;
    }
    }
    throw std::runtime_error("unknown operator");
}

}  // namespace taso
