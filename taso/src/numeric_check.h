// Floating-point comparison of two graphs on random inputs (TASO's second
// test after the integer fingerprints, and the check a graph optimiser's
// tests can run on a loaded substitution at concrete shapes).
#pragma once

#include "pattern_graph.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace taso {

// |a - b| <= 1e-6 * (1 + |a| + |b|) elementwise, and equal shapes.
bool tensors_close(const Tensor<double> &a, const Tensor<double> &b);

// Evaluates a and b on `trials` sets of random inputs in [-1, 1] at the
// given symbol sizes; true when every corresponding output pair is close.
// Throws std::runtime_error (naming the operator) when a graph is
// ill-shaped at those sizes.
bool numerically_equal(const InputFamily &family, const PatternGraph &a, const PatternGraph &b,
                       const std::vector<std::pair<int, int>> &outputs, const std::vector<int64_t> &symbol_sizes,
                       uint64_t seed = 1, int trials = 2);

}  // namespace taso
