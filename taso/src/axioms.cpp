// The operator properties, each a universally quantified equality over
// tensors (and integer attributes), with a guard where it only holds when
// shapes fit. Patterns say when the prover instantiates an axiom: "both"
// means when either side's term is present (so it rewrites either way),
// "fwd" only from the left side (the right side lacks a variable, or the
// other direction would build ever larger terms).
//
// Every axiom here holds in the concrete semantics of tensor_eval.h; the
// substitution generator never relies on an axiom alone: a pair must also
// have equal fingerprints and pass the floating-point re-check.
#include "axioms.h"

namespace taso {

Z3Signature::Z3Signature(z3::context &c)
    : ctx(c), T(c.uninterpreted_sort("T")), ewadd(c.function("ewadd", T, T, T)),
      ewmul(c.function("ewmul", T, T, T)), smul(c.function("smul", T, T, T)),
      matmul(c.function("matmul", T, T, T)), transpose(c.function("transpose", T, T)),
      relu(c.function("relu", T, T)), concat(c.function("concat", c.int_sort(), T, T, T)),
      split0(c.function("split0", c.int_sort(), T, T)), split1(c.function("split1", c.int_sort(), T, T)),
      conv([&] {
          z3::sort_vector dom(c);
          for (int i = 0; i < 3; i++) dom.push_back(c.int_sort());
          dom.push_back(T);
          dom.push_back(T);
          return c.function("conv2d", dom, T);
      }()),
      enlarge(c.function("enlarge", c.int_sort(), T, T)), identity(c.function("identity_kernel", c.int_sort(), T)),
      bias_add(c.function("bias_add", T, T, T)), conv_bias_decl([&] {
          z3::sort_vector dom(c);
          for (int i = 0; i < 3; i++) dom.push_back(c.int_sort());
          for (int i = 0; i < 3; i++) dom.push_back(T);
          return c.function("conv2d_bias", dom, T);
      }()),
      matmul_bias(c.function("matmul_bias", T, T, T, T)), conv_bias_add_decl([&] {
          z3::sort_vector dom(c);
          for (int i = 0; i < 3; i++) dom.push_back(c.int_sort());
          for (int i = 0; i < 4; i++) dom.push_back(T);
          return c.function("conv2d_bias_add", dom, T);
      }()),
      d0(c.function("d0", T, c.int_sort())), d1(c.function("d1", T, c.int_sort())),
      d2(c.function("d2", T, c.int_sort())), d3(c.function("d3", T, c.int_sort())) {}

z3::expr Z3Signature::conv_bias(const z3::expr &stride, const z3::expr &padding, const z3::expr &activation,
                                const z3::expr &x, const z3::expr &w, const z3::expr &b) const {
    z3::expr_vector args(ctx);
    for (const z3::expr &e : {stride, padding, activation, x, w, b}) args.push_back(e);
    return conv_bias_decl(args);
}

z3::expr Z3Signature::conv_bias_add(const z3::expr &stride, const z3::expr &padding, const z3::expr &activation,
                                    const z3::expr &x, const z3::expr &w, const z3::expr &b,
                                    const z3::expr &r) const {
    z3::expr_vector args(ctx);
    for (const z3::expr &e : {stride, padding, activation, x, w, b, r}) args.push_back(e);
    return conv_bias_add_decl(args);
}

z3::expr Z3Signature::dim(int axis, const z3::expr &t) const {
    switch (axis) {
    case 0: return d0(t);
    case 1: return d1(t);
    case 2: return d2(t);
    default: return d3(t);
    }
}

z3::expr Z3Signature::dim(const z3::expr &axis, const z3::expr &t) const {
    return z3::ite(axis == 0, d0(t), z3::ite(axis == 1, d1(t), z3::ite(axis == 2, d2(t), d3(t))));
}

z3::expr forall_with_patterns(const z3::expr_vector &vars, const z3::expr &body,
                              const std::vector<std::vector<z3::expr>> &patterns) {
    z3::context &c = body.ctx();
    std::vector<Z3_app> bound;
    for (unsigned i = 0; i < vars.size(); i++) bound.push_back((Z3_app)(Z3_ast)vars[i]);
    std::vector<Z3_pattern> pats;
    std::vector<z3::ast> keep;  // holds a reference to each pattern until the quantifier owns it
    for (const auto &p : patterns) {
        std::vector<Z3_ast> terms;
        for (const z3::expr &t : p) terms.push_back(t);
        Z3_pattern pat = Z3_mk_pattern(c, (unsigned)terms.size(), terms.data());
        c.check_error();
        keep.emplace_back(c, Z3_pattern_to_ast(c, pat));
        pats.push_back(pat);
    }
    Z3_ast q = Z3_mk_forall_const(c, 0, (unsigned)bound.size(), bound.data(), (unsigned)pats.size(), pats.data(),
                                  body);
    c.check_error();
    return z3::expr(c, q);
}

namespace {

// The bound variables every axiom draws from.
struct Vars {
    explicit Vars(const Z3Signature &S)
        : x(S.ctx.constant("x", S.T)), y(S.ctx.constant("y", S.T)), z(S.ctx.constant("z", S.T)),
          w(S.ctx.constant("w", S.T)), s(S.ctx.constant("s", S.T)), t(S.ctx.constant("t", S.T)),
          ax(S.ctx.int_const("ax")), ax2(S.ctx.int_const("ax2")), st(S.ctx.int_const("st")),
          pd(S.ctx.int_const("pd")), ac(S.ctx.int_const("ac")), k(S.ctx.int_const("k")),
          n(S.ctx.int_const("n")) {}
    z3::expr x, y, z, w, s, t, ax, ax2, st, pd, ac, k, n;
};

z3::expr_vector vec(std::initializer_list<z3::expr> es) {
    z3::expr_vector v(es.begin()->ctx());
    for (const auto &e : es) v.push_back(e);
    return v;
}

// lhs = rhs, rewriting either way.
z3::expr both(std::initializer_list<z3::expr> vars, const z3::expr &lhs, const z3::expr &rhs) {
    return forall_with_patterns(vec(vars), lhs == rhs, {{lhs}, {rhs}});
}
// lhs = rhs, instantiated from lhs only.
z3::expr fwd(std::initializer_list<z3::expr> vars, const z3::expr &lhs, const z3::expr &rhs) {
    return forall_with_patterns(vec(vars), lhs == rhs, {{lhs}});
}
// guard implies lhs = rhs, rewriting either way.
z3::expr both_if(std::initializer_list<z3::expr> vars, const z3::expr &guard, const z3::expr &lhs,
                 const z3::expr &rhs) {
    return forall_with_patterns(vec(vars), z3::implies(guard, lhs == rhs), {{lhs}, {rhs}});
}
z3::expr fwd_if(std::initializer_list<z3::expr> vars, const z3::expr &guard, const z3::expr &lhs,
                const z3::expr &rhs) {
    return forall_with_patterns(vec(vars), z3::implies(guard, lhs == rhs), {{lhs}});
}

// Equal spatial sizes (axes 2 and 3) of two 4-D tensors.
z3::expr same_spatial(const Z3Signature &S, const z3::expr &a, const z3::expr &b) {
    return S.d2(a) == S.d2(b) && S.d3(a) == S.d3(b);
}

}  // namespace

std::vector<Axiom> operator_axioms() {
    using S_ = const Z3Signature &;
    std::vector<Axiom> a;
    auto add = [&](const char *name, std::function<z3::expr(S_)> f) { a.push_back(Axiom{name, std::move(f)}); };
    const int same = kZ3PadSame, none = kZ3ActNone, relu = kZ3ActRelu;

    // --- elementwise algebra ------------------------------------------------
    // x + y = y + x (only from the left: the instance it makes matches again).
    add("ewadd_commutative", [](S_ S) { Vars v(S); return fwd({v.x, v.y}, S.ewadd(v.x, v.y), S.ewadd(v.y, v.x)); });
    // x + (y + z) = (x + y) + z
    add("ewadd_associative", [](S_ S) {
        Vars v(S);
        return both({v.x, v.y, v.z}, S.ewadd(v.x, S.ewadd(v.y, v.z)), S.ewadd(S.ewadd(v.x, v.y), v.z));
    });
    // x * y = y * x
    add("ewmul_commutative", [](S_ S) { Vars v(S); return fwd({v.x, v.y}, S.ewmul(v.x, v.y), S.ewmul(v.y, v.x)); });
    // x * (y * z) = (x * y) * z
    add("ewmul_associative", [](S_ S) {
        Vars v(S);
        return both({v.x, v.y, v.z}, S.ewmul(v.x, S.ewmul(v.y, v.z)), S.ewmul(S.ewmul(v.x, v.y), v.z));
    });
    // (x + y) * z = x * z + y * z
    add("ewmul_distributes_over_ewadd", [](S_ S) {
        Vars v(S);
        return both({v.x, v.y, v.z}, S.ewmul(S.ewadd(v.x, v.y), v.z),
                    S.ewadd(S.ewmul(v.x, v.z), S.ewmul(v.y, v.z)));
    });

    // --- multiplication by a scalar is linear and commutes with the rest ----
    // (x s) t = (x t) s
    add("smul_commutes_with_smul", [](S_ S) {
        Vars v(S);
        return fwd({v.x, v.s, v.t}, S.smul(S.smul(v.x, v.s), v.t), S.smul(S.smul(v.x, v.t), v.s));
    });
    // (x + y) s = x s + y s
    add("smul_distributes_over_ewadd", [](S_ S) {
        Vars v(S);
        return both({v.x, v.y, v.s}, S.smul(S.ewadd(v.x, v.y), v.s), S.ewadd(S.smul(v.x, v.s), S.smul(v.y, v.s)));
    });
    // (x * y) s = (x s) * y
    add("smul_of_ewmul", [](S_ S) {
        Vars v(S);
        return both({v.x, v.y, v.s}, S.smul(S.ewmul(v.x, v.y), v.s), S.ewmul(S.smul(v.x, v.s), v.y));
    });
    // (x y) s = (x s) y
    add("smul_of_matmul_left", [](S_ S) {
        Vars v(S);
        return both({v.x, v.y, v.s}, S.smul(S.matmul(v.x, v.y), v.s), S.matmul(S.smul(v.x, v.s), v.y));
    });
    // (x y) s = x (y s)
    add("smul_of_matmul_right", [](S_ S) {
        Vars v(S);
        return both({v.x, v.y, v.s}, S.smul(S.matmul(v.x, v.y), v.s), S.matmul(v.x, S.smul(v.y, v.s)));
    });
    // (x s)^T = (x^T) s
    add("smul_commutes_with_transpose", [](S_ S) {
        Vars v(S);
        return both({v.x, v.s}, S.transpose(S.smul(v.x, v.s)), S.smul(S.transpose(v.x), v.s));
    });
    // concat(x, y) s = concat(x s, y s)
    add("smul_distributes_over_concat", [](S_ S) {
        Vars v(S);
        return both({v.ax, v.x, v.y, v.s}, S.smul(S.concat(v.ax, v.x, v.y), v.s),
                    S.concat(v.ax, S.smul(v.x, v.s), S.smul(v.y, v.s)));
    });
    // conv(x s, w) = conv(x, w) s   (no activation: relu does not commute
    // with a negative factor)
    add("smul_through_conv_input", [none](S_ S) {
        Vars v(S);
        return both({v.st, v.pd, v.x, v.w, v.s}, S.conv(v.st, v.pd, S.num(none), S.smul(v.x, v.s), v.w),
                    S.smul(S.conv(v.st, v.pd, S.num(none), v.x, v.w), v.s));
    });
    // conv(x, w s) = conv(x, w) s
    add("smul_through_conv_kernel", [none](S_ S) {
        Vars v(S);
        return both({v.st, v.pd, v.x, v.w, v.s}, S.conv(v.st, v.pd, S.num(none), v.x, S.smul(v.w, v.s)),
                    S.smul(S.conv(v.st, v.pd, S.num(none), v.x, v.w), v.s));
    });
    // enlarge(w s) = enlarge(w) s
    add("smul_commutes_with_enlarge", [](S_ S) {
        Vars v(S);
        return both({v.k, v.w, v.s}, S.enlarge(v.k, S.smul(v.w, v.s)), S.smul(S.enlarge(v.k, v.w), v.s));
    });

    // --- matmul ----------------------------------------------------------------
    // (x y) z = x (y z)
    add("matmul_associative", [](S_ S) {
        Vars v(S);
        return both({v.x, v.y, v.z}, S.matmul(S.matmul(v.x, v.y), v.z), S.matmul(v.x, S.matmul(v.y, v.z)));
    });
    // x (y + z) = x y + x z
    add("matmul_distributes_left", [](S_ S) {
        Vars v(S);
        return both({v.x, v.y, v.z}, S.matmul(v.x, S.ewadd(v.y, v.z)),
                    S.ewadd(S.matmul(v.x, v.y), S.matmul(v.x, v.z)));
    });
    // (x + y) z = x z + y z
    add("matmul_distributes_right", [](S_ S) {
        Vars v(S);
        return both({v.x, v.y, v.z}, S.matmul(S.ewadd(v.x, v.y), v.z),
                    S.ewadd(S.matmul(v.x, v.z), S.matmul(v.y, v.z)));
    });
    // x [y | z] = [x y | x z]   (columns of the right operand)
    add("matmul_of_column_concat", [](S_ S) {
        Vars v(S);
        return both({v.x, v.y, v.z}, S.matmul(v.x, S.concat(S.num(1), v.y, v.z)),
                    S.concat(S.num(1), S.matmul(v.x, v.y), S.matmul(v.x, v.z)));
    });
    // [x ; y] z = [x z ; y z]   (rows of the left operand)
    add("matmul_of_row_concat", [](S_ S) {
        Vars v(S);
        return both({v.x, v.y, v.z}, S.matmul(S.concat(S.num(0), v.x, v.y), v.z),
                    S.concat(S.num(0), S.matmul(v.x, v.z), S.matmul(v.y, v.z)));
    });
    // [x | y] [z ; w] = x z + y w, when x's columns meet z's rows
    add("matmul_of_inner_concat", [](S_ S) {
        Vars v(S);
        return both_if({v.x, v.y, v.z, v.w}, S.d1(v.x) == S.d0(v.z),
                       S.matmul(S.concat(S.num(1), v.x, v.y), S.concat(S.num(0), v.z, v.w)),
                       S.ewadd(S.matmul(v.x, v.z), S.matmul(v.y, v.w)));
    });

    // --- transpose -------------------------------------------------------------
    // (x^T)^T = x
    add("transpose_involution", [](S_ S) { Vars v(S); return fwd({v.x}, S.transpose(S.transpose(v.x)), v.x); });
    // (x y)^T = y^T x^T
    add("transpose_of_matmul", [](S_ S) {
        Vars v(S);
        return both({v.x, v.y}, S.transpose(S.matmul(v.x, v.y)), S.matmul(S.transpose(v.y), S.transpose(v.x)));
    });
    // (x + y)^T = x^T + y^T
    add("transpose_over_ewadd", [](S_ S) {
        Vars v(S);
        return both({v.x, v.y}, S.transpose(S.ewadd(v.x, v.y)), S.ewadd(S.transpose(v.x), S.transpose(v.y)));
    });
    // (x * y)^T = x^T * y^T
    add("transpose_over_ewmul", [](S_ S) {
        Vars v(S);
        return both({v.x, v.y}, S.transpose(S.ewmul(v.x, v.y)), S.ewmul(S.transpose(v.x), S.transpose(v.y)));
    });
    // relu(x)^T = relu(x^T)
    add("transpose_commutes_with_relu", [](S_ S) {
        Vars v(S);
        return both({v.x}, S.transpose(S.relu(v.x)), S.relu(S.transpose(v.x)));
    });
    // [x ; y]^T = [x^T | y^T] and [x | y]^T = [x^T ; y^T]
    add("transpose_of_row_concat", [](S_ S) {
        Vars v(S);
        return both({v.x, v.y}, S.transpose(S.concat(S.num(0), v.x, v.y)),
                    S.concat(S.num(1), S.transpose(v.x), S.transpose(v.y)));
    });
    add("transpose_of_column_concat", [](S_ S) {
        Vars v(S);
        return both({v.x, v.y}, S.transpose(S.concat(S.num(1), v.x, v.y)),
                    S.concat(S.num(0), S.transpose(v.x), S.transpose(v.y)));
    });

    // --- concat and split --------------------------------------------------------
    // split undoes the concat it cuts at (the split tree makes that the
    // split point by construction).
    add("split0_of_concat", [](S_ S) {
        Vars v(S);
        return fwd({v.ax, v.x, v.y}, S.split0(v.ax, S.concat(v.ax, v.x, v.y)), v.x);
    });
    add("split1_of_concat", [](S_ S) {
        Vars v(S);
        return fwd({v.ax, v.x, v.y}, S.split1(v.ax, S.concat(v.ax, v.x, v.y)), v.y);
    });
    // concat(x + y, z + w) = concat(x, z) + concat(y, w), when x and y
    // (hence z and w) have the same size on the axis.
    add("concat_of_ewadds", [](S_ S) {
        Vars v(S);
        return both_if({v.ax, v.x, v.y, v.z, v.w}, S.dim(v.ax, v.x) == S.dim(v.ax, v.y),
                       S.concat(v.ax, S.ewadd(v.x, v.y), S.ewadd(v.z, v.w)),
                       S.ewadd(S.concat(v.ax, v.x, v.z), S.concat(v.ax, v.y, v.w)));
    });
    add("concat_of_ewmuls", [](S_ S) {
        Vars v(S);
        return both_if({v.ax, v.x, v.y, v.z, v.w}, S.dim(v.ax, v.x) == S.dim(v.ax, v.y),
                       S.concat(v.ax, S.ewmul(v.x, v.y), S.ewmul(v.z, v.w)),
                       S.ewmul(S.concat(v.ax, v.x, v.z), S.concat(v.ax, v.y, v.w)));
    });
    // relu(concat(x, y)) = concat(relu(x), relu(y))
    add("relu_distributes_over_concat", [](S_ S) {
        Vars v(S);
        return both({v.ax, v.x, v.y}, S.relu(S.concat(v.ax, v.x, v.y)),
                    S.concat(v.ax, S.relu(v.x), S.relu(v.y)));
    });
    // Block geometry: concat on one axis of concats on another equals the
    // other nesting, when the blocks line up.
    add("concat_blocks", [](S_ S) {
        Vars v(S);
        z3::expr guard = v.ax != v.ax2 && S.dim(v.ax2, v.x) == S.dim(v.ax2, v.z) && S.dim(v.ax, v.x) == S.dim(v.ax, v.y);
        return both_if({v.ax, v.ax2, v.x, v.y, v.z, v.w}, guard,
                       S.concat(v.ax, S.concat(v.ax2, v.x, v.y), S.concat(v.ax2, v.z, v.w)),
                       S.concat(v.ax2, S.concat(v.ax, v.x, v.z), S.concat(v.ax, v.y, v.w)));
    });

    // --- relu ------------------------------------------------------------------
    // relu(relu(x)) = relu(x)
    add("relu_idempotent", [](S_ S) { Vars v(S); return fwd({v.x}, S.relu(S.relu(v.x)), S.relu(v.x)); });

    // --- conv2d ------------------------------------------------------------------
    // The fused activation is relu after the convolution.
    add("conv_relu_activation", [none, relu](S_ S) {
        Vars v(S);
        return both({v.st, v.pd, v.x, v.w}, S.conv(v.st, v.pd, S.num(relu), v.x, v.w),
                    S.relu(S.conv(v.st, v.pd, S.num(none), v.x, v.w)));
    });
    // conv(x, y + z) = conv(x, y) + conv(x, z), kernels of one size
    add("conv_linear_in_kernel", [none](S_ S) {
        Vars v(S);
        return both_if({v.st, v.pd, v.x, v.y, v.z}, same_spatial(S, v.y, v.z),
                       S.conv(v.st, v.pd, S.num(none), v.x, S.ewadd(v.y, v.z)),
                       S.ewadd(S.conv(v.st, v.pd, S.num(none), v.x, v.y), S.conv(v.st, v.pd, S.num(none), v.x, v.z)));
    });
    // conv(x + y, w) = conv(x, w) + conv(y, w), inputs of one size
    add("conv_linear_in_input", [none](S_ S) {
        Vars v(S);
        return both_if({v.st, v.pd, v.x, v.y, v.w}, same_spatial(S, v.x, v.y),
                       S.conv(v.st, v.pd, S.num(none), S.ewadd(v.x, v.y), v.w),
                       S.ewadd(S.conv(v.st, v.pd, S.num(none), v.x, v.w), S.conv(v.st, v.pd, S.num(none), v.y, v.w)));
    });
    // Kernels stacked on the output-channel axis give the two convolutions'
    // results stacked on the channel axis.
    add("conv_of_concatenated_kernels", [](S_ S) {
        Vars v(S);
        return both_if({v.st, v.pd, v.ac, v.x, v.y, v.z}, same_spatial(S, v.y, v.z),
                       S.conv(v.st, v.pd, v.ac, v.x, S.concat(S.num(0), v.y, v.z)),
                       S.concat(S.num(1), S.conv(v.st, v.pd, v.ac, v.x, v.y), S.conv(v.st, v.pd, v.ac, v.x, v.z)));
    });
    // Inputs stacked on the batch axis give results stacked on the batch axis.
    add("conv_of_concatenated_batch", [](S_ S) {
        Vars v(S);
        return both_if({v.st, v.pd, v.ac, v.x, v.y, v.w}, same_spatial(S, v.x, v.y),
                       S.conv(v.st, v.pd, v.ac, S.concat(S.num(0), v.x, v.y), v.w),
                       S.concat(S.num(0), S.conv(v.st, v.pd, v.ac, v.x, v.w), S.conv(v.st, v.pd, v.ac, v.y, v.w)));
    });
    // Input channels split across two kernels: the convolution sums the parts.
    add("conv_of_concatenated_channels", [none](S_ S) {
        Vars v(S);
        z3::expr guard = S.d1(v.x) == S.d1(v.z) && same_spatial(S, v.x, v.y) && same_spatial(S, v.z, v.w);
        return both_if({v.st, v.pd, v.x, v.y, v.z, v.w}, guard,
                       S.conv(v.st, v.pd, S.num(none), S.concat(S.num(1), v.x, v.y), S.concat(S.num(1), v.z, v.w)),
                       S.ewadd(S.conv(v.st, v.pd, S.num(none), v.x, v.z), S.conv(v.st, v.pd, S.num(none), v.y, v.w)));
    });
    // A 1x1 kernel zero-padded to k x k convolves the same under same
    // padding (kernel/2 on each side keeps the centre on the same pixel).
    add("conv_of_enlarged_kernel", [same](S_ S) {
        Vars v(S);
        return fwd_if({v.st, v.ac, v.k, v.x, v.w}, S.d2(v.w) == 1 && S.d3(v.w) == 1,
                      S.conv(v.st, S.num(same), v.ac, v.x, S.enlarge(v.k, v.w)), S.conv(v.st, S.num(same), v.ac, v.x, v.w));
    });
    // A 1x1 kernel pads nothing either way: valid and same padding agree.
    add("conv_padding_of_1x1_kernel", [same](S_ S) {
        Vars v(S);
        return fwd_if({v.st, v.ac, v.x, v.w}, S.d2(v.w) == 1 && S.d3(v.w) == 1,
                      S.conv(v.st, S.num(kZ3PadValid), v.ac, v.x, v.w), S.conv(v.st, S.num(same), v.ac, v.x, v.w));
    });
    // enlarge(y + z) = enlarge(y) + enlarge(z)
    add("enlarge_over_ewadd", [](S_ S) {
        Vars v(S);
        return both({v.k, v.y, v.z}, S.enlarge(v.k, S.ewadd(v.y, v.z)),
                    S.ewadd(S.enlarge(v.k, v.y), S.enlarge(v.k, v.z)));
    });
    // enlarge commutes with concat on the channel axes (0 and 1).
    add("enlarge_over_concat", [](S_ S) {
        Vars v(S);
        return both_if({v.k, v.ax, v.y, v.z}, v.ax == 0 || v.ax == 1, S.enlarge(v.k, S.concat(v.ax, v.y, v.z)),
                       S.concat(v.ax, S.enlarge(v.k, v.y), S.enlarge(v.k, v.z)));
    });
    // Stride-1 convolution with the identity kernel returns its input.
    add("conv_with_identity_kernel", [none](S_ S) {
        Vars v(S);
        return fwd_if({v.pd, v.x, v.n}, S.d1(v.x) == v.n, S.conv(S.num(1), v.pd, S.num(none), v.x, S.identity(v.n)), v.x);
    });

    // --- layers with a bias ------------------------------------------------------
    // A biased convolution is the convolution, then the bias along the
    // channels, then the activation (relu fused or none).
    add("conv_bias_definition", [none](S_ S) {
        Vars v(S);
        return fwd({v.st, v.pd, v.x, v.w, v.z}, S.conv_bias(v.st, v.pd, S.num(none), v.x, v.w, v.z),
                   S.bias_add(S.conv(v.st, v.pd, S.num(none), v.x, v.w), v.z));
    });
    add("conv_bias_relu_definition", [none, relu](S_ S) {
        Vars v(S);
        return fwd({v.st, v.pd, v.x, v.w, v.z}, S.conv_bias(v.st, v.pd, S.num(relu), v.x, v.w, v.z),
                   S.relu(S.bias_add(S.conv(v.st, v.pd, S.num(none), v.x, v.w), v.z)));
    });
    // A biased convolution with a residual is the biased convolution
    // without activation, plus the residual, then the activation.
    add("conv_bias_add_definition", [none](S_ S) {
        Vars v(S);
        return fwd({v.st, v.pd, v.x, v.w, v.z, v.y},
                   S.conv_bias_add(v.st, v.pd, S.num(none), v.x, v.w, v.z, v.y),
                   S.ewadd(S.conv_bias(v.st, v.pd, S.num(none), v.x, v.w, v.z), v.y));
    });
    add("conv_bias_add_relu_definition", [none, relu](S_ S) {
        Vars v(S);
        return fwd({v.st, v.pd, v.x, v.w, v.z, v.y},
                   S.conv_bias_add(v.st, v.pd, S.num(relu), v.x, v.w, v.z, v.y),
                   S.relu(S.ewadd(S.conv_bias(v.st, v.pd, S.num(none), v.x, v.w, v.z), v.y)));
    });
    // A dense layer is the product, then the bias along the columns.
    add("matmul_bias_definition", [](S_ S) {
        Vars v(S);
        return fwd({v.x, v.w, v.z}, S.matmul_bias(v.x, v.w, v.z), S.bias_add(S.matmul(v.x, v.w), v.z));
    });
    // Stacked channels take stacked biases: bias_add([x | y], [b ; c]) =
    // [bias_add(x, b) | bias_add(y, c)], when b is as long as x has channels.
    add("bias_add_of_channel_concat", [](S_ S) {
        Vars v(S);
        return both_if({v.x, v.y, v.z, v.w}, S.d1(v.x) == S.d0(v.z),
                       S.bias_add(S.concat(S.num(1), v.x, v.y), S.concat(S.num(0), v.z, v.w)),
                       S.concat(S.num(1), S.bias_add(v.x, v.z), S.bias_add(v.y, v.w)));
    });
    // Stacked rows (batches) share the bias.
    add("bias_add_of_row_concat", [](S_ S) {
        Vars v(S);
        return both({v.x, v.y, v.z}, S.bias_add(S.concat(S.num(0), v.x, v.y), v.z),
                    S.concat(S.num(0), S.bias_add(v.x, v.z), S.bias_add(v.y, v.z)));
    });
    return a;
}

std::vector<Axiom> shape_axioms() {
    using S_ = const Z3Signature &;
    std::vector<Axiom> a;
    auto add = [&](const char *name, std::function<z3::expr(S_)> f) { a.push_back(Axiom{name, std::move(f)}); };
    auto all_axes_equal = [](S_ S, const z3::expr &r, const z3::expr &x) {
        return S.d0(r) == S.d0(x) && S.d1(r) == S.d1(x) && S.d2(r) == S.d2(x) && S.d3(r) == S.d3(x);
    };
    // Elementwise operators keep their first operand's shape.
    add("shape_ewadd", [=](S_ S) {
        Vars v(S);
        z3::expr r = S.ewadd(v.x, v.y);
        return forall_with_patterns(vec({v.x, v.y}), all_axes_equal(S, r, v.x), {{r}});
    });
    add("shape_ewmul", [=](S_ S) {
        Vars v(S);
        z3::expr r = S.ewmul(v.x, v.y);
        return forall_with_patterns(vec({v.x, v.y}), all_axes_equal(S, r, v.x), {{r}});
    });
    add("shape_smul", [=](S_ S) {
        Vars v(S);
        z3::expr r = S.smul(v.x, v.s);
        return forall_with_patterns(vec({v.x, v.s}), all_axes_equal(S, r, v.x), {{r}});
    });
    add("shape_relu", [=](S_ S) {
        Vars v(S);
        z3::expr r = S.relu(v.x);
        return forall_with_patterns(vec({v.x}), all_axes_equal(S, r, v.x), {{r}});
    });
    // [m,k] x [k,n] -> [m,n]
    add("shape_matmul", [](S_ S) {
        Vars v(S);
        z3::expr r = S.matmul(v.x, v.y);
        return forall_with_patterns(vec({v.x, v.y}), S.d0(r) == S.d0(v.x) && S.d1(r) == S.d1(v.y), {{r}});
    });
    add("shape_transpose", [](S_ S) {
        Vars v(S);
        z3::expr r = S.transpose(v.x);
        return forall_with_patterns(vec({v.x}), S.d0(r) == S.d1(v.x) && S.d1(r) == S.d0(v.x), {{r}});
    });
    // concat adds the sizes on its axis and keeps the others.
    add("shape_concat", [](S_ S) {
        Vars v(S);
        z3::expr r = S.concat(v.ax, v.x, v.y);
        z3::expr body = S.ctx.bool_val(true);
        for (int i = 0; i < 4; i++)
            body = body && S.dim(i, r) == z3::ite(v.ax == i, S.dim(i, v.x) + S.dim(i, v.y), S.dim(i, v.x));
        return forall_with_patterns(vec({v.ax, v.x, v.y}), body, {{r}});
    });
    // split keeps the sizes off its axis (the axis' sizes follow from the
    // concat it undoes).
    add("shape_split", [](S_ S) {
        Vars v(S);
        z3::expr r0 = S.split0(v.ax, v.x), r1 = S.split1(v.ax, v.x);
        z3::expr b0 = S.ctx.bool_val(true), b1 = S.ctx.bool_val(true);
        for (int i = 0; i < 4; i++) {
            b0 = b0 && z3::implies(v.ax != i, S.dim(i, r0) == S.dim(i, v.x));
            b1 = b1 && z3::implies(v.ax != i, S.dim(i, r1) == S.dim(i, v.x));
        }
        return forall_with_patterns(vec({v.ax, v.x}), b0, {{r0}}) &&
               forall_with_patterns(vec({v.ax, v.x}), b1, {{r1}});
    });
    // [n,c,h,w] conv [o,c,kh,kw] -> [n,o,h',w'] with h' as in shape.h.
    add("shape_conv2d", [](S_ S) {
        Vars v(S);
        z3::expr r = S.conv(v.st, v.pd, v.ac, v.x, v.w);
        auto out = [&](const z3::expr &in, const z3::expr &k) {
            return z3::ite(v.pd == kZ3PadSame, (in - 1) / v.st + 1, (in - k) / v.st + 1);
        };
        z3::expr body = S.d0(r) == S.d0(v.x) && S.d1(r) == S.d0(v.w) && S.d2(r) == out(S.d2(v.x), S.d2(v.w)) &&
                        S.d3(r) == out(S.d3(v.x), S.d3(v.w));
        return forall_with_patterns(vec({v.st, v.pd, v.ac, v.x, v.w}), body, {{r}});
    });
    add("shape_enlarge", [](S_ S) {
        Vars v(S);
        z3::expr r = S.enlarge(v.k, v.w);
        z3::expr body = S.d0(r) == S.d0(v.w) && S.d1(r) == S.d1(v.w) && S.d2(r) == v.k && S.d3(r) == v.k;
        return forall_with_patterns(vec({v.k, v.w}), body, {{r}});
    });
    add("shape_bias_add", [=](S_ S) {
        Vars v(S);
        z3::expr r = S.bias_add(v.x, v.z);
        return forall_with_patterns(vec({v.x, v.z}), all_axes_equal(S, r, v.x), {{r}});
    });
    add("shape_identity_kernel", [](S_ S) {
        Vars v(S);
        z3::expr r = S.identity(v.n);
        z3::expr body = S.d0(r) == v.n && S.d1(r) == v.n && S.d2(r) == 1 && S.d3(r) == 1;
        return forall_with_patterns(vec({v.n}), body, {{r}});
    });
    return a;
}

}  // namespace taso
