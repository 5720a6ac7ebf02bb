#pragma once
// The executor's outputs against the reference. The error of a tensor is
// max |got - want| / max(max |want|, 1e-6): relative to the tensor's scale,
// so that a deep network's growing or shrinking values do not matter, and
// so that a near-zero element cannot blow it up. The default tolerance,
// 1e-3, is the tuner's own (HL_ANSOR_TOLERANCE); float32 sums in a
// different order across a network stay far below it.
#include "tensor_values.h"

namespace ansor_graph {

constexpr double kDefaultTolerance = 1e-3;

struct TensorCheck {
    std::string name;
    double error = 0;  // as above; infinite for NaN or a shape mismatch
    double scale = 0;  // max |want|
    bool ok(double tolerance = kDefaultTolerance) const { return error <= tolerance; }
};

TensorCheck check_tensor(const std::string &name, const Tensor &got, const Tensor &want);

}  // namespace ansor_graph
