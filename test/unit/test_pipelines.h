#pragma once
// Small pipelines the unit tests analyse, sketch and schedule.
#include <Halide.h>

namespace ansor_test {

using namespace Halide;

// C(x, y) = sum_k A(k, y) * B(x, k): pure init plus an update over k.
inline Func matmul(ImageParam A, ImageParam B, int n, const std::string &name = "matmul") {
    Var x("x"), y("y");
    RDom k(0, n, "k");
    Func C(name);
    C(x, y) = 0.f;
    C(x, y) += A(k, y) * B(x, k);
    A.dim(0).set_estimate(0, n).dim(1).set_estimate(0, n);
    B.dim(0).set_estimate(0, n).dim(1).set_estimate(0, n);
    return C;
}

struct Pipe {
    std::vector<Func> outputs;
    std::vector<Halide::Internal::Function> functions() const {
        std::vector<Halide::Internal::Function> f;
        for (const auto &o : outputs) f.push_back(o.function());
        return f;
    }
};

inline Pipe make_matmul(int n = 64) {
    ImageParam A(Float(32), 2, "A"), B(Float(32), 2, "B");
    Func C = matmul(A, B, n);
    C.set_estimate(C.args()[0], 0, n).set_estimate(C.args()[1], 0, n);
    return {{C}};
}

inline Pipe make_matmul_relu(int n = 64) {
    ImageParam A(Float(32), 2, "A"), B(Float(32), 2, "B");
    Func C = matmul(A, B, n);
    Var x("x"), y("y");
    Func relu("relu");
    relu(x, y) = max(C(x, y), 0.f);
    relu.set_estimate(x, 0, n).set_estimate(y, 0, n);
    return {{relu}};
}

// total() = sum of in(r) over n values: a reduction to a scalar.
inline Pipe make_scalar_sum(int n) {
    ImageParam in(Float(32), 1, "in");
    in.dim(0).set_estimate(0, n);
    RDom r(0, n, "r");
    Func s("total");
    s() = 0.f;
    s() += in(r);
    return {{s}};
}

// out(b) = sqrt(sum over (i, j) of in(i, j, b)^2): little space, much reduction.
inline Pipe make_norm(int m = 256) {
    ImageParam in(Float(32), 3, "in");
    in.dim(0).set_estimate(0, m).dim(1).set_estimate(0, m).dim(2).set_estimate(0, 1);
    Var b("b");
    RDom r(0, m, 0, m, "r");
    Func sq("sumsq");
    sq(b) = 0.f;
    sq(b) += in(r.x, r.y, b) * in(r.x, r.y, b);
    Func out("norm");
    out(b) = sqrt(sq(b));
    out.set_estimate(b, 0, 1);
    return {{out}};
}

// Three elementwise stages feeding an output.
inline Pipe make_elementwise_chain(int w = 256, int h = 128) {
    ImageParam in(Float(32), 2, "in");
    in.dim(0).set_estimate(0, w).dim(1).set_estimate(0, h);
    Var x("x"), y("y");
    Func a("a"), b("b"), c("c"), out("out");
    a(x, y) = in(x, y) * 2.f;
    b(x, y) = a(x, y) + 1.f;
    c(x, y) = b(x, y) * b(x, y);
    out(x, y) = c(x, y) - in(x, y);
    out.set_estimate(x, 0, w).set_estimate(y, 0, h);
    return {{out}};
}

// A 3x3 blur: two stencil stages, the first a candidate for compute_at.
inline Pipe make_blur(int w = 256, int h = 128) {
    ImageParam in(Float(32), 2, "in");
    in.dim(0).set_estimate(0, w + 2).dim(1).set_estimate(0, h + 2);
    Var x("x"), y("y");
    Func bx("blur_x"), by("blur_y");
    bx(x, y) = in(x, y) + in(x + 1, y) + in(x + 2, y);
    by(x, y) = bx(x, y) + bx(x, y + 1) + bx(x, y + 2);
    by.set_estimate(x, 0, w).set_estimate(y, 0, h);
    return {{by}};
}

// A producer read at offsets another Func computes from the data, clamped
// to a radius that is a Param (a sample of a bokeh or a search window): only
// the offset's value bounds, at the Param's estimate, bound the read.
inline Pipe make_sample_offsets(int w = 40, int h = 24, int radius_estimate = 3) {
    ImageParam in(UInt(8), 2, "in");
    in.dim(0).set_estimate(0, w).dim(1).set_estimate(0, h);
    Param<int> radius("radius");
    radius.set_estimate(radius_estimate);
    Var x("x"), y("y");
    Func edge = BoundaryConditions::repeat_edge(in);
    Func src("src"), offset("offset"), out("out");
    src(x, y) = cast<float>(edge(x, y)) * 0.5f;
    offset(x, y) = clamp(cast<int>(edge(x, y)) - 128, -radius, radius);
    out(x, y) = src(x + offset(x, y), y) + src(x, y + 1);
    out.set_estimate(x, 0, w).set_estimate(y, 0, h);
    return {{out}};
}

// conv 3x3 + ReLU over a zero-padded input (channels innermost): the
// boundary condition adds wrapper Funcs that must be inlined or looked through.
inline Pipe make_padded_conv(int hw = 16, int ci = 8, int co = 16) {
    ImageParam in(Float(32), 3, "input"), w(Float(32), 4, "weights");
    in.dim(0).set_estimate(0, ci).dim(1).set_estimate(0, hw).dim(2).set_estimate(0, hw);
    w.dim(0).set_estimate(0, co).dim(1).set_estimate(0, ci).dim(2).set_estimate(0, 3).dim(3).set_estimate(0, 3);
    Var c("c"), x("x"), y("y");
    Func padded = BoundaryConditions::constant_exterior(in, 0.f, {{0, ci}, {0, hw}, {0, hw}});
    RDom r(0, ci, 0, 3, 0, 3, "r");
    Func conv("conv"), relu("relu");
    conv(c, x, y) = 0.f;
    conv(c, x, y) += w(c, r.x, r.y, r.z) * padded(r.x, x + r.y - 1, y + r.z - 1);
    relu(c, x, y) = max(conv(c, x, y), 0.f);
    relu.set_estimate(c, 0, co).set_estimate(x, 0, hw).set_estimate(y, 0, hw);
    return {{relu}};
}


// A chain of 5-point stencils after a repeat-edge boundary, the last one the
// output: every stage reads the one before at offsets, so none is strictly
// inlinable and each may be computed inside the next one's tiles.
inline Pipe make_stencil_chain(int w = 64, int h = 48, int stages = 3) {
    ImageParam in(Float(32), 2, "in");
    in.dim(0).set_estimate(0, w).dim(1).set_estimate(0, h);
    Var x("x"), y("y");
    Func prev = BoundaryConditions::repeat_edge(in);
    for (int i = 0; i < stages; i++) {
        Func s(i + 1 == stages ? std::string("out") : "stage_" + std::to_string(i));
        s(x, y) = 0.5f * prev(x, y) + 0.125f * (prev(x - 1, y) + prev(x + 1, y) + prev(x, y - 1) + prev(x, y + 1));
        prev = s;
    }
    prev.set_estimate(x, 0, w).set_estimate(y, 0, h);
    return {{prev}};
}

// A MobileNet block, channels innermost: a 3x3 depthwise convolution over a
// zero-padded input (its initial value a bias), ReLU, a 1x1 pointwise
// convolution, ReLU.
inline Pipe make_depthwise_pointwise(int hw = 16, int ci = 8, int co = 16) {
    ImageParam in(Float(32), 3, "input"), dw(Float(32), 3, "dw_weight"), pw(Float(32), 2, "pw_weight");
    ImageParam bias(Float(32), 1, "dw_bias");
    in.dim(0).set_estimate(0, ci).dim(1).set_estimate(0, hw).dim(2).set_estimate(0, hw);
    bias.dim(0).set_estimate(0, ci);
    dw.dim(0).set_estimate(0, ci).dim(1).set_estimate(0, 3).dim(2).set_estimate(0, 3);
    pw.dim(0).set_estimate(0, co).dim(1).set_estimate(0, ci);
    Var c("c"), x("x"), y("y");
    Func padded = BoundaryConditions::constant_exterior(in, 0.f, {{0, ci}, {0, hw}, {0, hw}});
    RDom k(0, 3, 0, 3, "k"), r(0, ci, "r");
    Func depthwise("depthwise"), dw_relu("dw_relu"), pointwise("pointwise"), out("out");
    depthwise(c, x, y) = bias(c);
    depthwise(c, x, y) += dw(c, k.x, k.y) * padded(c, x + k.x - 1, y + k.y - 1);
    dw_relu(c, x, y) = max(depthwise(c, x, y), 0.f);
    pointwise(c, x, y) = 0.f;
    pointwise(c, x, y) += pw(c, r) * dw_relu(r, x, y);
    out(c, x, y) = max(pointwise(c, x, y), 0.f);
    out.set_estimate(c, 0, co).set_estimate(x, 0, hw).set_estimate(y, 0, hw);
    return {{out}};
}
}  // namespace ansor_test

namespace ansor_test {

// Halide makes Func names unique per process ("matmul", then "matmul$1"), so
// tests look Funcs up by the name they gave.
template<typename DAG>
std::string resolve(const DAG &dag, const std::string &base) {
    for (const auto &n : dag.nodes()) {
        if (n.name == base || n.name.rfind(base + "$", 0) == 0) return n.name;
    }
    const std::string suffix = "_intm";
    if (base.size() > suffix.size() && base.compare(base.size() - suffix.size(), suffix.size(), suffix) == 0) {
        return resolve(dag, base.substr(0, base.size() - suffix.size())) + suffix;
    }
    return base;
}

}  // namespace ansor_test
