#pragma once
// The pipelines the throughput tools time the search's pieces on: a square
// matmul and a 3x3 conv layer with bias and ReLU (channels innermost, as in
// generators/ops/conv_layer.cpp), estimates set.
#include <Halide.h>

namespace ansor_apps {

inline Halide::Func throughput_matmul(int n) {
    using namespace Halide;
    ImageParam A(Float(32), 2, "A"), B(Float(32), 2, "B");
    A.dim(0).set_estimate(0, n).dim(1).set_estimate(0, n);
    B.dim(0).set_estimate(0, n).dim(1).set_estimate(0, n);
    Var x("x"), y("y");
    RDom k(0, n, "k");
    Func C("matmul");
    C(x, y) = 0.f;
    C(x, y) += A(k, y) * B(x, k);
    C.set_estimate(x, 0, n).set_estimate(y, 0, n);
    return C;
}

inline Halide::Func throughput_conv(int hw, int ci, int co) {
    using namespace Halide;
    ImageParam in(Float(32), 3, "input"), w(Float(32), 4, "weight"), bias(Float(32), 1, "bias");
    in.dim(0).set_estimate(0, ci).dim(1).set_estimate(0, hw).dim(2).set_estimate(0, hw);
    w.dim(0).set_estimate(0, co).dim(1).set_estimate(0, ci).dim(2).set_estimate(0, 3).dim(3).set_estimate(0, 3);
    bias.dim(0).set_estimate(0, co);
    Var c("c"), x("x"), y("y");
    Func padded = BoundaryConditions::constant_exterior(in, 0.f, {{0, ci}, {0, hw}, {0, hw}});
    RDom r(0, ci, 0, 3, 0, 3, "r");
    Func conv("conv"), relu("relu");
    conv(c, x, y) = bias(c);
    conv(c, x, y) += w(c, r.x, r.y, r.z) * padded(r.x, x + r.y - 1, y + r.z - 1);
    relu(c, x, y) = max(conv(c, x, y), 0.f);
    relu.set_estimate(c, 0, co).set_estimate(x, 0, hw).set_estimate(y, 0, hw);
    return relu;
}

}  // namespace ansor_apps
