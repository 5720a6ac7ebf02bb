#pragma once
// Counting a definition's arithmetic, per iteration, by column of the
// arithmetic group.
#include "features/program_features.h"

#include <Halide.h>

#include <array>
#include <vector>

namespace ansor {
namespace features {
namespace detail {

struct DefinitionOps {
    std::array<double, kArith> counts{};  // indexed by ArithColumn
    // The Func and image calls, outermost first; they point into the
    // expressions that were counted.
    std::vector<const Halide::Internal::Call *> calls;
};

// Counts the arithmetic of a definition's values, then its left-hand-side
// arguments, then its predicate unless that is trivially true. Each shared
// sub-expression counts once, as CSE would.
DefinitionOps count_operations(const std::vector<Halide::Expr> &values, const std::vector<Halide::Expr> &args,
                               const Halide::Expr &predicate);

}  // namespace detail
}  // namespace features
}  // namespace ansor
