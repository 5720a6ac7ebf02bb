#include "ops.h"

#include <stdexcept>

namespace taso {

namespace {

const char *const kNames[] = {"matmul", "ewadd", "ewmul", "smul", "relu",
                              "transpose", "concat", "split", "conv2d", "enlarge",
                              "conv2d_bias", "matmul_bias", "conv2d_bias_add"};

std::optional<TensorType> fail(std::string *why, const std::string &reason) {
    if (why) *why = reason;
    return std::nullopt;
}

// Split history survives an elementwise combination only where both
// operands agree on it (then a later split cuts both at the same place).
SplitTree merge_tree(const SplitTree &a, const SplitTree &b) {
    return same_tree(a, b) ? a : nullptr;
}

}  // namespace

const char *op_name(OpKind kind) { return kNames[(int)kind]; }

OpKind op_from_name(const std::string &name) {
    for (int i = 0; i < (int)(sizeof(kNames) / sizeof(kNames[0])); i++)
        if (name == kNames[i]) return (OpKind)i;
    throw std::runtime_error("unknown operator '" + name + "'");
}

int num_operands(OpKind kind) {
    switch (kind) {
    case OpKind::Relu:
    case OpKind::Transpose:
    case OpKind::Split:
    case OpKind::Enlarge:
        return 1;
    case OpKind::Conv2dBias:
    case OpKind::MatmulBias:
        return 3;
    case OpKind::Conv2dBiasAdd:
        return 4;
    default:
        return 2;
    }
}

int num_results(OpKind kind) { return kind == OpKind::Split ? 2 : 1; }

bool is_convolution(OpKind kind) {
    return kind == OpKind::Conv2d || kind == OpKind::Conv2dBias || kind == OpKind::Conv2dBiasAdd;
}

bool is_commutative(OpKind kind) { return kind == OpKind::EwAdd || kind == OpKind::EwMul; }

std::string attrs_str(OpKind kind, const OpAttrs &a) {
    switch (kind) {
    case OpKind::Concat:
    case OpKind::Split:
        return "axis=" + std::to_string(a.axis);
    case OpKind::Conv2d:
    case OpKind::Conv2dBias:
    case OpKind::Conv2dBiasAdd:
        return "stride=" + std::to_string(a.stride) + "," +
               (a.padding == Padding::Same ? "same" : "valid") + "," +
               (a.activation == Activation::Relu ? "relu" : "none");
    case OpKind::Enlarge:
        return "kernel=" + std::to_string(a.kernel);
    default:
        return "";
    }
}

std::optional<TensorType> infer_result(OpKind kind, const OpAttrs &attrs,
                                       const std::vector<const TensorType *> &in, int port,
                                       std::string *why) {
    if ((int)in.size() != num_operands(kind))
        return fail(why, std::string(op_name(kind)) + " takes " + std::to_string(num_operands(kind)) +
                             " operands, got " + std::to_string(in.size()));
    if (port < 0 || port >= num_results(kind))
        return fail(why, std::string(op_name(kind)) + " has no result " + std::to_string(port));
    for (const TensorType *t : in)
        if (t->rank == 0 && !(kind == OpKind::ScalarMul && t == in[1]))
            return fail(why, std::string(op_name(kind)) + " does not take a scalar operand");
    TensorType r;
    switch (kind) {
    case OpKind::Matmul: {
        const TensorType &a = *in[0], &b = *in[1];
        if (a.rank != 2 || b.rank != 2) return fail(why, "matmul needs 2-D operands");
        if (a.dims[1] != b.dims[0]) return fail(why, "matmul inner dimensions differ");
        r.rank = 2;
        r.dims = {a.dims[0], b.dims[1]};
        r.splits = {a.splits[0], b.splits[1]};
        return r;
    }
    case OpKind::EwAdd:
    case OpKind::EwMul: {
        const TensorType &a = *in[0], &b = *in[1];
        if (!same_shape(a, b)) return fail(why, std::string(op_name(kind)) + " needs equal shapes");
        r = a;
        for (int i = 0; i < r.rank; i++) r.splits[i] = merge_tree(a.splits[i], b.splits[i]);
        return r;
    }
    case OpKind::ScalarMul:
        if (in[0]->rank == 0 || in[1]->rank != 0)
            return fail(why, "smul multiplies a tensor by a scalar");
        return *in[0];
    case OpKind::Relu:
        return *in[0];
    case OpKind::Transpose: {
        const TensorType &a = *in[0];
        if (a.rank != 2) return fail(why, "transpose needs a 2-D operand");
        r.rank = 2;
        r.dims = {a.dims[1], a.dims[0]};
        r.splits = {a.splits[1], a.splits[0]};
        return r;
    }
    case OpKind::Concat: {
        const TensorType &a = *in[0], &b = *in[1];
        int ax = attrs.axis;
        if (a.rank != b.rank || ax < 0 || ax >= a.rank) return fail(why, "concat axis out of range");
        for (int i = 0; i < a.rank; i++)
            if (i != ax && a.dims[i] != b.dims[i]) return fail(why, "concat operands differ off the axis");
        auto sum = add_dims(a.dims[ax], b.dims[ax]);
        if (!sum) return fail(why, "concat along a convolved axis");
        r = a;
        r.dims[ax] = *sum;
        for (int i = 0; i < a.rank; i++) r.splits[i] = merge_tree(a.splits[i], b.splits[i]);
        r.splits[ax] = std::make_shared<SplitNode>(SplitNode{a.dims[ax], a.splits[ax], b.splits[ax]});
        return r;
    }
    case OpKind::Split: {
        const TensorType &a = *in[0];
        int ax = attrs.axis;
        if (ax < 0 || ax >= a.rank) return fail(why, "split axis out of range");
        const SplitTree &t = a.splits[ax];
        if (!t) return fail(why, "split of a tensor with no concat on that axis");
        r = a;
        // Only the split axis keeps a history: the parts' other axes would
        // need the concat/split commutation the verifier does not model.
        for (int i = 0; i < r.rank; i++) r.splits[i] = nullptr;
        if (port == 0) {
            r.dims[ax] = t->left;
            r.splits[ax] = t->left_tree;
        } else {
            auto rest = subtract_dims(a.dims[ax], t->left);
            if (!rest) return fail(why, "split sizes do not add up");
            r.dims[ax] = *rest;
            r.splits[ax] = t->right_tree;
        }
        return r;
    }
    case OpKind::Conv2dBias:
    case OpKind::MatmulBias: {
        // The unbiased operator's result, with a bias as long as its
        // channel (column) axis.
        const TensorType &b = *in[2];
        if (b.rank != 1) return fail(why, std::string(op_name(kind)) + " needs a 1-D bias");
        OpKind plain = kind == OpKind::Conv2dBias ? OpKind::Conv2d : OpKind::Matmul;
        auto t = infer_result(plain, attrs, {in[0], in[1]}, port, why);
        if (!t) return t;
        if (t->dims[1] != b.dims[0]) return fail(why, std::string(op_name(kind)) + " bias length differs from the channels");
        t->splits[1] = merge_tree(t->splits[1], b.splits[0]);
        return t;
    }
    case OpKind::Conv2dBiasAdd: {
        // The biased convolution's result; the residual has its shape.
        auto t = infer_result(OpKind::Conv2dBias, attrs, {in[0], in[1], in[2]}, port, why);
        if (!t) return t;
        const TensorType &res = *in[3];
        if (!same_shape(*t, res)) return fail(why, "conv2d_bias_add residual differs from the convolution's result");
        for (int i = 0; i < t->rank; i++) t->splits[i] = merge_tree(t->splits[i], res.splits[i]);
        return t;
    }
    case OpKind::Conv2d: {
        const TensorType &x = *in[0], &w = *in[1];
        if (x.rank != 4 || w.rank != 4) return fail(why, "conv2d needs 4-D operands");
        if (x.dims[1] != w.dims[1]) return fail(why, "conv2d channel counts differ");
        if (attrs.stride < 1) return fail(why, "conv2d stride must be positive");
        bool same = attrs.padding == Padding::Same;
        for (int i = 2; i < 4; i++) {
            if (!w.dims[i].plain() || !w.dims[i].symbols.empty())
                return fail(why, "conv2d kernel sizes must be constants");
            if (same && w.dims[i].constant % 2 == 0) return fail(why, "same padding needs odd kernels");
        }
        r.rank = 4;
        r.dims = {x.dims[0], w.dims[0], conv_dim(x.dims[2], (int)w.dims[2].constant, attrs.stride, same),
                  conv_dim(x.dims[3], (int)w.dims[3].constant, attrs.stride, same)};
        r.splits = {x.splits[0], w.splits[0], nullptr, nullptr};
        return r;
    }
    case OpKind::Enlarge: {
        const TensorType &w = *in[0];
        if (w.rank != 4) return fail(why, "enlarge needs a 4-D kernel");
        if (w.dims[2] != DimExpr::literal(1) || w.dims[3] != DimExpr::literal(1))
            return fail(why, "enlarge takes a 1x1 kernel");
        if (attrs.kernel < 3 || attrs.kernel % 2 == 0) return fail(why, "enlarge kernel must be odd and >= 3");
        r = w;
        r.dims[2] = r.dims[3] = DimExpr::literal(attrs.kernel);
        r.splits[2] = r.splits[3] = nullptr;
        return r;
    }
    }
    return fail(why, "unknown operator");
}

}  // namespace taso
