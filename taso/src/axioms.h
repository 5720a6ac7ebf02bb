// The operator properties the verifier reasons with (axioms.cpp lists them).
//
// Tensors are an uninterpreted sort T; every operator is an uninterpreted
// function; integer attributes (axis, stride, padding, activation, kernel
// size) are Int arguments. Shapes are modelled by four functions
// d0..d3 : T -> Int, so an axiom that only holds when shapes fit states that
// condition over them (a guard); shape axioms give the operators' result
// sizes so guards can be decided for terms the prover creates itself.
#pragma once

#include <z3++.h>

#include <functional>
#include <string>
#include <vector>

namespace taso {

// Encodings of the enum attributes as Z3 integers.
constexpr int kZ3PadSame = 0, kZ3PadValid = 1;
constexpr int kZ3ActNone = 0, kZ3ActRelu = 1;

struct Z3Signature {
    explicit Z3Signature(z3::context &c);
    z3::context &ctx;
    z3::sort T;
    z3::func_decl ewadd, ewmul, smul, matmul, transpose, relu;
    z3::func_decl concat;          // (axis, x, y)
    z3::func_decl split0, split1;  // (axis, x)
    z3::func_decl conv;            // (stride, padding, activation, x, w)
    z3::func_decl enlarge;         // (kernel, w)
    z3::func_decl identity;        // (channels): the identity kernel constant
    z3::func_decl bias_add;        // (x, b): b added along axis 1 of x
    z3::func_decl conv_bias_decl;  // (stride, padding, activation, x, w, b)
    z3::func_decl matmul_bias;     // (x, w, b)
    z3::func_decl conv_bias_add_decl;  // (stride, padding, activation, x, w, b, r)
    z3::func_decl d0, d1, d2, d3;  // sizes along axes 0..3
    // The size of t along a (possibly symbolic) axis 0..3.
    z3::expr dim(const z3::expr &axis, const z3::expr &t) const;
    z3::expr dim(int axis, const z3::expr &t) const;
    z3::expr num(int v) const { return ctx.int_val(v); }
    z3::expr conv_bias(const z3::expr &stride, const z3::expr &padding, const z3::expr &activation,
                       const z3::expr &x, const z3::expr &w, const z3::expr &b) const;
    z3::expr conv_bias_add(const z3::expr &stride, const z3::expr &padding, const z3::expr &activation,
                           const z3::expr &x, const z3::expr &w, const z3::expr &b, const z3::expr &r) const;
};

struct Axiom {
    std::string name;
    std::function<z3::expr(const Z3Signature &)> build;  // a closed formula
};

// Operator properties (the algebra's equalities, with shape guards).
std::vector<Axiom> operator_axioms();
// Result sizes of every operator.
std::vector<Axiom> shape_axioms();

// forall vars. body, instantiated when any one of the patterns matches
// (each pattern is a list of terms that must all match).
z3::expr forall_with_patterns(const z3::expr_vector &vars, const z3::expr &body,
                              const std::vector<std::vector<z3::expr>> &patterns);

}  // namespace taso
