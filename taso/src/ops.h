// The operator algebra of the substitution generator: the operators, their
// (deliberately small) attribute space, and symbolic shape inference.
//
//   matmul(a, b)          [m,k] x [k,n] -> [m,n]
//   ewadd(a, b)           same shapes (2-D or 4-D)
//   ewmul(a, b)           same shapes
//   smul(a, s)            a times the scalar (rank-0) tensor s
//   relu(a)
//   transpose(a)          2-D only
//   concat(axis; a, b)    shapes equal except on axis
//   split(axis; a)        two results: undoes the most recent concat on axis
//   conv2d(stride, padding, activation; x, w)
//                         x [n,c,h,w], w [o,c,kh,kw] -> [n,o,h',w']
//   enlarge(kernel; w)    zero-pads a 1x1 kernel to kernel x kernel (centred)
//   conv2d_bias(stride, padding, activation; x, w, b)
//                         conv2d with a per-output-channel bias b [o] added
//                         before the activation (a network's usual layer)
//   matmul_bias(a, w, b)  [m,k] x [k,n] + b [n] on every row (a dense layer)
//   conv2d_bias_add(stride, padding, activation; x, w, b, r)
//                         conv2d_bias with a residual r (the result's shape)
//                         added before the activation: a residual block's
//                         last layer, its shortcut addition and relu in one
#pragma once

#include "shape.h"

#include <string>
#include <vector>

namespace taso {

enum class OpKind { Matmul, EwAdd, EwMul, ScalarMul, Relu, Transpose, Concat, Split, Conv2d, Enlarge, Conv2dBias, MatmulBias, Conv2dBiasAdd };
enum class Padding { Same = 0, Valid = 1 };
enum class Activation { None = 0, Relu = 1 };

// Attributes; each operator reads only its own (the rest stay default).
struct OpAttrs {
    int axis = 0;                         // concat, split
    int stride = 1;                       // conv2d, conv2d_bias, conv2d_bias_add
    Padding padding = Padding::Same;      // conv2d, conv2d_bias, conv2d_bias_add
    Activation activation = Activation::None;  // conv2d, conv2d_bias, conv2d_bias_add
    int kernel = 0;                       // enlarge: the target kernel size
    bool operator==(const OpAttrs &o) const {
        return axis == o.axis && stride == o.stride && padding == o.padding &&
               activation == o.activation && kernel == o.kernel;
    }
};

const char *op_name(OpKind kind);
// Throws std::runtime_error naming the text for an unknown operator.
OpKind op_from_name(const std::string &name);
int num_operands(OpKind kind);
int num_results(OpKind kind);
// A convolution of any kind (conv2d, conv2d_bias, conv2d_bias_add): takes
// data, a kernel, and for the biased ones a bias (and a residual).
bool is_convolution(OpKind kind);
bool is_commutative(OpKind kind);
// A short rendering of the attributes the operator uses ("" when none).
std::string attrs_str(OpKind kind, const OpAttrs &attrs);

// The symbolic type of result `port`, or nullopt with a reason in *why.
std::optional<TensorType> infer_result(OpKind kind, const OpAttrs &attrs,
                                       const std::vector<const TensorType *> &operands, int port,
                                       std::string *why = nullptr);

}  // namespace taso
