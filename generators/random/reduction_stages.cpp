// Reductions: row and column sums normalising their input, reductions over
// channels, matmul-like contractions and a tuple-valued argmax.
#include "draft.h"

#include <algorithm>

using namespace Halide;

namespace random_pipeline {

namespace {

// vs without dimension `dim`: the pure vars of a Func reducing over it.
std::vector<Var> without(std::vector<Var> vs, int dim) {
    vs.erase(vs.begin() + dim);
    return vs;
}

std::vector<Expr> exprs(const std::vector<Var> &vs) { return std::vector<Expr>(vs.begin(), vs.end()); }

std::vector<Expr> with(std::vector<Expr> args, int dim, const Expr &e) {
    args[dim] = e;
    return args;
}

}  // namespace

bool draw_axis_sum(Draft &d, int dim) {
    Value a = *d.pick();
    int n = a.extents[dim];
    std::vector<Var> vs = d.vars(a.rank());
    std::vector<Expr> args = d.coords(a.rank());
    std::vector<Var> rest = without(vs, dim);
    Type acc = accumulator_type(a.type);
    RDom r(0, n, d.name(dim == 0 ? "rx" : "ry"));
    Func s = d.func(dim == 0 ? "row_sum" : "column_sum");
    s(rest) = cast(acc, 0);
    s(exprs(rest)) += cast(acc, a.func(with(args, dim, r.x)));
    Expr total = s(exprs(rest));
    Value out{d.func(dim == 0 ? "row_normalised" : "column_normalised"), a.type, a.extents, a.magnitude};
    std::string what;
    if (a.type.is_float() && d.rng.chance(0.5)) {
        out.func(vs) = a.func(args) - total * (float)(1.0 / n);
        out.magnitude = 2 * a.magnitude;
        what = "minus its mean";
    } else if (a.type.is_uint()) {  // value * n / (sum + 1), saturated: at most 8192 * 65535 in u32
        out.func(vs) = saturating_cast(a.type, (cast(UInt(32), a.func(args)) * n) / (total + 1));
        what = "times n over the sum";
    } else {  // a / (mean |a| + 1), as f32 in [-1, 1]
        out.type = Float(32);
        out.magnitude = 1;
        out.func(vs) = as_float(a, args, true) / (abs(total) * (float)(1.0 / (n * a.magnitude)) + 1.f);
        what = "over its mean magnitude";
    }
    StageRecord record{dim == 0 ? StageKind::RowSum : StageKind::ColumnSum, "", a.func.name() + " " + what};
    record.has_update = true;
    d.add(out, record);
    return true;
}

bool draw_channel_reduce(Draft &d) {
    const Value *pa = d.pick([](const Value &v) { return v.rank() == 3; });
    if (!pa) return false;
    Value a = *pa;
    int n = a.extents[2];
    RDom r(0, n, d.name("rc"));
    Value out{d.func("channel_reduce"), a.type, {a.extents[0], a.extents[1]}, a.magnitude};
    std::string what;
    if (d.rng.chance(0.5)) {
        Type acc = accumulator_type(a.type);
        Func s = d.func("channel_sum");
        s(d.x, d.y) = cast(acc, 0);
        s(d.x, d.y) += cast(acc, a.func(d.x, d.y, r.x));
        out.func(d.x, d.y) = from_accumulator(s(d.x, d.y) / cast(acc, n), a.type);
        what = "mean";
    } else {
        out.func(d.x, d.y) = a.func(d.x, d.y, 0);
        out.func(d.x, d.y) = max(out.func(d.x, d.y), a.func(d.x, d.y, r.x));
        what = "max";
    }
    StageRecord record{StageKind::ChannelReduce, "", what + " over the " + std::to_string(n) + " channels of " +
                                                         a.func.name()};
    record.has_update = true;
    d.add(out, record);
    return true;
}

bool draw_matmul(Draft &d) {
    Value a = *d.pick();
    Value b = *d.pick_partner(a);
    // C(n, m[, c]) = sum over k of A(k, m[, c]) B(n, k[, c]): a's rows dot b's columns.
    int64_t K = std::min(a.extents[0], b.extents[1]);
    int64_t N = b.extents[0], M = a.extents[1];
    int64_t C = a.rank() == 3 ? std::min(a.extents[2], b.extents[2]) : 1;
    while (N * M * K * C > kMaxWork) {
        if (N >= M && N > 1) {
            N = (N + 1) / 2;
        } else if (M > 1) {
            M = (M + 1) / 2;
        } else {
            K = (K + 1) / 2;
        }
    }
    RDom r(0, (int)K, d.name("rk"));
    std::vector<Var> vs = d.vars(a.rank());
    std::vector<Expr> a_args = {r.x, d.y}, b_args = {d.x, r.x};
    if (a.rank() == 3) {
        a_args.push_back(d.c);
        b_args.push_back(d.c);
    }
    std::vector<int> extents = {(int)N, (int)M};
    if (a.rank() == 3) extents.push_back((int)C);
    Value out{d.func("matmul"), Float(32), extents, 1};
    if (a.type == UInt(8) && b.type == UInt(8)) {  // exact in i32: K * 255^2 < 2^30
        out.type = Int(32);
        out.magnitude = 65025.0 * (double)K;
        out.func(vs) = 0;
        out.func(vs) += cast<int32_t>(a.func(a_args)) * cast<int32_t>(b.func(b_args));
    } else {  // normalised operands, the sum scaled by 1 / K
        out.func(vs) = 0.f;
        out.func(vs) += as_float(a, a_args, true) * as_float(b, b_args, true) * (float)(1.0 / (double)K);
    }
    StageRecord record{StageKind::Matmul, "", a.func.name() + " x " + b.func.name() + ", K=" + std::to_string(K)};
    record.has_update = true;
    d.add(out, record);
    return true;
}

bool draw_argmax(Draft &d) {
    Value a = *d.pick();
    int dim = a.rank() == 3 && d.rng.chance(0.5) ? 2 : 0;
    std::vector<Var> vs = d.vars(a.rank());
    std::vector<Expr> args = d.coords(a.rank());
    std::vector<Var> rest = without(vs, dim);
    std::vector<Expr> rest_args = exprs(rest);
    RDom r(0, a.extents[dim], d.name("ra"));
    Func am = d.func("argmax");
    am(rest) = Tuple(0, a.func(with(args, dim, 0)));
    Expr candidate = a.func(with(args, dim, r.x));
    am(rest_args) = Tuple(select(candidate > am(rest_args)[1], r.x, am(rest_args)[0]),
                          max(am(rest_args)[1], candidate));
    StageRecord record{StageKind::Argmax, "", ""};
    record.has_update = record.tuple_valued = true;
    if (dim == 2) {  // a label map: the index of the largest channel
        Value out{d.func("labels"), Int(32), {a.extents[0], a.extents[1]}, (double)a.extents[2]};
        out.func(d.x, d.y) = am(d.x, d.y)[0];
        record.description = "argmax over the channels of " + a.func.name();
        d.add(out, record);
    } else {  // the row's maximum where it is, zero elsewhere
        Value out{d.func("row_max"), a.type, a.extents, a.magnitude};
        Expr zero = cast(a.type, 0);
        out.func(vs) = select(d.x == am(rest_args)[0], am(rest_args)[1], zero);
        record.description = "argmax along the rows of " + a.func.name();
        d.add(out, record);
    }
    return true;
}

}  // namespace random_pipeline
