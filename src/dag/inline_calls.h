// Substitutes a Func's definition for its calls inside an expression, for
// bounds analysis. Halide's own inline_function validates the Func's schedule,
// which inspects LoopLevels that stay unlocked until lowering, so it cannot be
// used on a pipeline that is being scheduled.
#pragma once

#include <Halide.h>

namespace ansor {

// Every call to `f` (a pure, single-valued or tuple Func) in `e` becomes the
// matching value of f's pure definition with its arguments substituted.
Halide::Expr inline_calls(const Halide::Expr &e, const Halide::Internal::Function &f);

}  // namespace ansor
