#pragma once
// Small questions about Halide IR shared by the arithmetic count and the
// affine forms of indices.
#include <Halide.h>

namespace ansor {
namespace features {
namespace detail {

// Hints and reinterpretations: they cost nothing and index like their
// (first, or for return_second second) argument.
inline bool is_transparent_intrinsic(const Halide::Internal::Call *op) {
    using Halide::Internal::Call;
    return op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::likely_if_innermost) ||
           op->is_intrinsic(Call::promise_clamped) || op->is_intrinsic(Call::unsafe_promise_clamped) ||
           op->is_intrinsic(Call::strict_float) || op->is_intrinsic(Call::return_second) ||
           op->is_intrinsic(Call::reinterpret);
}

// The value of a numeric constant (through casts); false if `e` is none.
inline bool const_value(const Halide::Expr &e, double &v) {
    using namespace Halide::Internal;
    if (const IntImm *i = e.as<IntImm>()) { v = (double)i->value; return true; }
    if (const UIntImm *u = e.as<UIntImm>()) { v = (double)u->value; return true; }
    if (const FloatImm *f = e.as<FloatImm>()) { v = f->value; return true; }
    if (const Cast *c = e.as<Cast>()) return const_value(c->value, v);
    return false;
}

}  // namespace detail
}  // namespace features
}  // namespace ansor
