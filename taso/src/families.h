// The fixed inputs and operator variants the generator enumerates over.
//
// Five families, enumerated separately (a graph mixing 2-D and 4-D tensors
// has no connected use):
//   matrix: A [m,k], B [k,n], C [k,n], scalar s;
//           matmul, ewadd, ewmul, smul, relu, transpose, concat/split on
//           axes 0 and 1.
//   conv:   X [b,c,h,w], W1 W2 [c,c,3,3], W3 [c,c,1,1], identity kernel
//           I [c,c,1,1], scalar s;
//           conv2d (stride 1 same none|relu, stride 2 same, stride 1 valid),
//           ewadd, smul, relu,
//           concat/split on axes 0 (batch) and 1 (channels), enlarge to 3x3.
//   dense_bias: A [m,k], weights B [k,n] and C [k,p], biases b1 [n], b2 [p];
//           matmul_bias, concat/split on axes 0 and 1.
//   conv_bias: X [b,c,h,w], W1 [o,c,3,3], W3 [p,c,1,1], W4 [q,c,1,1],
//           biases b1 [o], b2 [p], b3 [q];
//           conv2d_bias (stride 1 same, none|relu), enlarge to 3x3,
//           concat/split on axes 0 and 1.
//   residual: X [b,c,h,w], W1 [o,c,1,1], W2 [o,c,3,3], bias b1 [o],
//           shortcut R [b,o,h,w];
//           conv2d_bias and conv2d_bias_add (stride 1 same, none|relu),
//           ewadd, relu.
// A convolution's data operand depends on X and its kernel on weights and
// constants only; relu applies to data. Kernels are square in channels (c -> c) so that a convolution's result
// can meet its input in an ewadd, as in residual blocks.
#pragma once

#include "pattern_graph.h"

#include <vector>

namespace taso {

struct OpVariant {
    OpKind kind;
    OpAttrs attrs;
};

struct EnumerationFamily {
    InputFamily family;
    std::vector<OpVariant> ops;
    // Symbol sizes (in the family's symbol order) for the integer
    // fingerprints, and different ones for the floating-point re-check.
    std::vector<int64_t> fingerprint_sizes;
    std::vector<int64_t> recheck_sizes;
    // Operators per graph when the generator is not told otherwise: 3, or
    // 4 for the biased-layer families, whose useful merges need four
    // (concatenated kernels, concatenated biases, the layer, the split).
    int max_ops = 3;
};

std::vector<EnumerationFamily> default_families();

// An input family from "name:kind:dim,dim,..." entries, e.g.
// {"A:tensor:m,k", "s:scalar:"}; throws std::runtime_error naming the bad
// entry.
InputFamily make_family(const std::string &name, const std::vector<std::string> &inputs);

}  // namespace taso
