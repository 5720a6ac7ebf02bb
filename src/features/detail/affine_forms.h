#pragma once
// Buffer indices as affine forms of a definition's loop variables (slots).
#include <Halide.h>

#include <string>
#include <utility>
#include <vector>

namespace ansor {
namespace features {
namespace detail {

// Writes an index expression as an affine form of the slots. Non-affine
// parts are approximated (see docs/features.md): x / c as x * (1/c), x % c
// as x, a clamp or min/max against a constant as its other operand, a
// select as its true value, anything else (products of variables,
// data-dependent indices) as a constant 0.
class Linearizer {
public:
    explicit Linearizer(const std::vector<std::string> &slots) : slots_(slots) {}
    // The constant, then one coefficient per slot.
    std::vector<double> form(const Halide::Expr &e);
    // The forms of a buffer access's arguments, one row after another.
    std::vector<double> forms(const std::vector<Halide::Expr> &args);

private:
    void add(const Halide::Expr &e, double s, double *f, int depth);
    void add_call(const Halide::Internal::Call *call, double s, double *f, int depth);

    const std::vector<std::string> &slots_;
    std::vector<std::pair<std::string, Halide::Expr>> lets_;
};

}  // namespace detail
}  // namespace features
}  // namespace ansor
