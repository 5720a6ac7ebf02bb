// Pointwise stages: arithmetic on one or two values, casts, tuple-valued
// Funcs, Funcs with update definitions, and 2-D values expanded to 3-D.
#include "draft.h"

#include <algorithm>
#include <cmath>

using namespace Halide;

namespace random_pipeline {

namespace {

struct Result {
    Expr e;
    double magnitude;
    std::string what;
};

float small_constant(Rng &rng, double lo, double hi) {
    return (float)(std::round((lo + rng.unit() * (hi - lo)) * 64) / 64);  // short, exact in f32
}

Result float_op(Rng &rng, Expr a, double ma, const Expr &b, double mb) {
    if (b.defined()) {
        switch (rng.range(0, 6)) {
        case 0: return {a + b, ma + mb, "add"};
        case 1: return {a - b, ma + mb, "sub"};
        case 2:
            if (ma * mb <= kMaxFloatMagnitude) return {a * b, ma * mb, "mul"};
            return {(a + b) * 0.5f, (ma + mb) / 2, "mean"};
        case 3: return {min(a, b), std::max(ma, mb), "min"};
        case 4: return {max(a, b), std::max(ma, mb), "max"};
        case 5: {
            float k = small_constant(rng, -1, 1);
            return {select(a > b, a, b * k), std::max(ma, mb), "select"};
        }
        default: {
            float k = small_constant(rng, 0, 1);
            return {a * k + b * (1 - k), std::max(ma, mb), "blend"};
        }
        }
    }
    switch (rng.range(0, 6)) {
    case 0: return {max(a, 0.f), ma, "relu"};
    case 1: return {abs(a), ma, "abs"};
    case 2: {
        float k = small_constant(rng, -2, 2), k2 = small_constant(rng, -1, 1);
        return {a * k + k2, ma * std::fabs(k) + std::fabs(k2), "affine"};
    }
    case 3: return {sqrt(abs(a)), std::sqrt(ma), "sqrt"};
    case 4: return {exp(-abs(a)), 1, "exp"};
    case 5: return {a / (abs(a) + 1.f), 1, "softsign"};
    default: {
        float k = small_constant(rng, 0.25, 2);
        return {clamp(a, -k, k), std::min<double>(ma, k), "clamp"};
    }
    }
}

// u8 or u16: every result stays in the type's range (saturated, averaged or shifted).
Result unsigned_op(Rng &rng, Type t, const Expr &a, const Expr &b) {
    double top = type_bound(t);
    Expr wa = cast(UInt(32), a);
    if (b.defined()) {
        switch (rng.range(0, 6)) {
        case 0: return {saturating_cast(t, wa + b), top, "saturating add"};
        case 1: return {cast(t, absd(a, b)), top, "absd"};
        case 2: return {cast(t, (wa + b + 1) / 2), top, "average"};
        case 3: return {min(a, b), top, "min"};
        case 4: return {max(a, b), top, "max"};
        case 5: return {select(a > b, a - b, b - a), top, "select difference"};
        default: return {cast(t, (wa * b) >> t.bits()), top, "scaled mul"};
        }
    }
    switch (rng.range(0, 3)) {
    case 0: return {cast(t, (int)top) - a, top, "invert"};
    case 1: {
        int k = (int)rng.range(1, 8);
        return {saturating_cast(t, (wa * k) / 4), top, "saturating gain"};
    }
    case 2: {
        int thresh = (int)rng.range(1, (int64_t)top - 1);
        return {select(a > cast(t, thresh), a, cast(t, 0)), top, "threshold"};
    }
    default: return {(a >> 1) + (a >> 2), top, "shift sum"};
    }
}

// i32: operands are halved before an add that could pass kMaxIntMagnitude.
Result int_op(Rng &rng, Expr a, double ma, Expr b, double mb) {
    if (b.defined()) {
        int op = (int)rng.range(0, 5);
        if ((op == 0 || op == 1) && ma + mb > kMaxIntMagnitude) {
            a = a / 2;
            b = b / 2;
            ma /= 2;
            mb /= 2;
        }
        switch (op) {
        case 0: return {a + b, ma + mb, "add"};
        case 1: return {a - b, ma + mb, "sub"};
        case 2: return {min(a, b), std::max(ma, mb), "min"};
        case 3: return {max(a, b), std::max(ma, mb), "max"};
        case 4: return {select(a > b, a, b), std::max(ma, mb), "select"};
        default: {
            int k = (int)rng.range(2, 4);
            if (ma * k <= kMaxIntMagnitude) return {a * k + b / 2, ma * k + mb / 2, "mul add"};
            return {a / k + b / 2, ma / k + mb / 2, "div add"};
        }
        }
    }
    switch (rng.range(0, 2)) {
    case 0: return {cast<int32_t>(abs(a)), ma, "abs"};
    case 1: {
        int k = (int)rng.range(2, 16);
        return {a / k, ma / k + 1, "div"};
    }
    default: {
        int k = (int)rng.range(0, 1000);
        return {clamp(a, -k, k), std::min<double>(ma, k), "clamp"};
    }
    }
}

Result typed_op(Rng &rng, Type t, const Expr &a, double ma, const Expr &b, double mb) {
    Result r;
    if (t.is_float()) {
        r = float_op(rng, a, ma, b, mb);
        if (r.magnitude > kMaxFloatMagnitude / 16) {  // keep every float value far from inf
            r.e = r.e * (float)(1.0 / r.magnitude);
            r.magnitude = 1;
        }
        return r;
    }
    if (t == Int(32)) return int_op(rng, a, ma, b, mb);
    return unsigned_op(rng, t, a, b);
}

}  // namespace

bool draw_pointwise(Draft &d) {
    Value a = *d.pick();
    Value b = *d.pick_partner(a);
    bool binary = d.rng.chance(0.7) && b.func.name() != a.func.name();
    std::vector<Expr> args = d.coords(a.rank());
    double mb = 0;
    Expr eb = binary ? convert(b, args, a.type, &mb) : Expr();
    Result r = typed_op(d.rng, a.type, a.func(args), a.magnitude, eb, mb);
    Value out{d.func("pointwise"), a.type, binary ? common_extents(a, b) : a.extents, r.magnitude};
    out.func(d.vars(a.rank())) = r.e;
    std::string operands = a.func.name() + (binary ? ", " + b.func.name() : "");
    d.add(out, {StageKind::Pointwise, "", r.what + "(" + operands + ") " + type_name(a.type)});
    return true;
}

bool draw_cast(Draft &d) {
    Value a = *d.pick();
    std::vector<Type> others;
    for (Type t : {UInt(8), UInt(16), Int(32), Float(32)}) {
        if (t != a.type) others.push_back(t);
    }
    Type t = d.rng.pick(others);
    Value out{d.func("cast"), t, a.extents, 0};
    out.func(d.vars(a.rank())) = convert(a, d.coords(a.rank()), t, &out.magnitude);
    d.add(out, {StageKind::Cast, "", a.func.name() + " " + type_name(a.type) + " -> " + type_name(t)});
    return true;
}

bool draw_tuple_valued(Draft &d) {
    Value a = *d.pick();
    Value b = *d.pick_partner(a);
    std::vector<Expr> args = d.coords(a.rank());
    std::vector<Var> vs = d.vars(a.rank());
    double mb = 0;
    Expr ea = a.func(args), eb = convert(b, args, a.type, &mb);
    Func pair = d.func("pair");
    Value out{d.func("spread"), a.type, common_extents(a, b), 0};
    std::string what;
    if (a.type.is_float() && d.rng.chance(0.5)) {  // (sum, difference), mixed with an i32 sign
        pair(vs) = Tuple(ea + eb, ea - eb, select(ea > eb, 1, -1));
        float k = small_constant(d.rng, 0.25, 1);
        out.func(vs) = pair(vs)[0] * k + pair(vs)[1] * cast<float>(pair(vs)[2]);
        out.magnitude = (a.magnitude + mb) * (k + 1);
        what = "(sum, difference, sign)";
    } else {  // (min, max): the range
        pair(vs) = Tuple(min(ea, eb), max(ea, eb));
        Expr spread = pair(vs)[1] - pair(vs)[0];
        if (a.type == Int(32)) spread = pair(vs)[1] / 2 - pair(vs)[0] / 2;
        out.func(vs) = spread;
        out.magnitude = a.type.is_float() ? a.magnitude + mb : std::max(a.magnitude, mb);
        what = "(min, max)";
    }
    StageRecord r{StageKind::TupleValued, "", what + " of " + a.func.name() + ", " + b.func.name()};
    r.tuple_valued = true;
    d.add(out, r);
    return true;
}

bool draw_update(Draft &d) {
    Value a = *d.pick();
    Value b = *d.pick_partner(a);
    std::vector<Expr> args = d.coords(a.rank());
    std::vector<Var> vs = d.vars(a.rank());
    Value out{d.func("accumulate"), a.type, common_extents(a, b), a.magnitude};
    Func &f = out.func;
    f(vs) = a.func(args);
    std::string what = "from " + a.func.name();
    int updates = (int)d.rng.range(1, 3);
    for (int u = 0; u < updates; u++) {
        int kind = (int)d.rng.range(0, 2);
        if (kind == 0) {  // a pure update combining another value
            double mb = 0;
            Expr eb = convert(b, args, a.type, &mb);
            Result r = typed_op(d.rng, a.type, f(args), out.magnitude, eb, mb);
            f(vs) = r.e;
            out.magnitude = r.magnitude;
            what += "; " + r.what + " " + b.func.name();
        } else if (kind == 1 && out.extents[1] >= 2) {  // row 0 := row 1, an RDom along x
            RDom r(0, out.extents[0], d.name("row"));
            std::vector<Expr> dst = args, src = args;
            dst[0] = r.x;
            src[0] = r.x;
            dst[1] = 0;
            src[1] = 1;
            f(dst) = f(src);
            what += "; row 0 := row 1";
        } else {  // clamped in place
            Expr lo = cast(a.type, 0), hi = cast(a.type, Expr(a.type.is_float() ? 1.0 : type_bound(a.type) / 2));
            f(vs) = clamp(f(args), lo, hi);
            out.magnitude = std::min(out.magnitude, a.type.is_float() ? 1.0 : type_bound(a.type) / 2);
            what += "; clamp";
        }
    }
    StageRecord r{StageKind::Update, "", what};
    r.has_update = true;
    d.add(out, r);
    return true;
}

bool draw_expand(Draft &d) {
    const Value *pa = d.pick([](const Value &v) { return v.rank() == 2; });
    if (!pa) return false;
    Value a = *pa;
    int channels = d.rng.pick(std::vector<int>{2, 3, 4, 8, 16});
    if (a.points() * channels > d.max_points) return false;
    std::vector<int> extents = {a.extents[0], a.extents[1], channels};
    Value out{d.func("expand"), a.type, extents, a.magnitude};
    Expr e = a.func(d.x, d.y);
    if (a.type.is_float()) {
        float k = small_constant(d.rng, -1, 1);
        out.func(d.x, d.y, d.c) = e * (cast<float>(d.c) * k + 1.f);
        out.magnitude = a.magnitude * (1 + std::fabs(k) * channels);
    } else if (a.type == Int(32)) {
        out.func(d.x, d.y, d.c) = e / (d.c + 1);
    } else {
        out.func(d.x, d.y, d.c) = cast(a.type, (cast(UInt(32), e) * (d.c + 1)) / channels);
    }
    d.add(out, {StageKind::Expand, "", a.func.name() + " times per-channel gains, " + std::to_string(channels) +
                                           " channels"});
    return true;
}

}  // namespace random_pipeline
