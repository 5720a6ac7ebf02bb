#include "draft.h"

#include <algorithm>
#include <cstdio>

using namespace Halide;

namespace random_pipeline {

int64_t Value::points() const {
    int64_t p = 1;
    for (int e : extents) p *= e;
    return p;
}

double type_bound(Type t) {
    if (t == UInt(8)) return 255;
    if (t == UInt(16)) return 65535;
    if (t == Int(32)) return kMaxIntMagnitude;
    return kMaxFloatMagnitude;
}

bool is_float(Type t) { return t.is_float(); }

std::vector<Var> Draft::vars(int rank) const {
    std::vector<Var> all = {x, y, c};
    return std::vector<Var>(all.begin(), all.begin() + rank);
}

std::vector<Expr> Draft::coords(int rank) const {
    std::vector<Expr> out;
    for (const Var &v : vars(rank)) out.push_back(v);
    return out;
}

std::string Draft::name(const std::string &what) const {
    char prefix[16];
    std::snprintf(prefix, sizeof prefix, "s%02d_", stage);
    return prefix + what;
}

const Value *Draft::pick(const std::function<bool(const Value &)> &ok) {
    std::vector<const Value *> acceptable;
    for (const Value &v : pool) {
        if (!ok || ok(v)) acceptable.push_back(&v);
    }
    if (acceptable.empty()) return nullptr;
    if (rng.chance(0.6)) return acceptable.back();
    return rng.pick(acceptable);
}

const Value *Draft::pick_partner(const Value &first) {
    const Value *other = pick([&](const Value &v) { return v.rank() == first.rank() && v.func.name() != first.func.name(); });
    if (other && rng.chance(0.85)) return other;
    return &first;
}

void Draft::add(const Value &v, StageRecord record) {
    Value kept = v;
    // The stages keep their bounds; this only catches growth they could not
    // avoid, so that no value ever overflows into inf, NaN or wrapped i32.
    double limit = v.type.is_float() ? kMaxFloatMagnitude / 16 : kMaxIntMagnitude / 4;
    if ((v.type.is_float() || v.type == Int(32)) && v.magnitude > limit) {
        kept.func = named_func(v.func.name() + "_rescaled");
        std::vector<Var> vs = vars(v.rank());
        if (v.type.is_float()) {
            kept.func(vs) = v.func(vs) * (float)(1.0 / v.magnitude);
            kept.magnitude = 1;
        } else {
            kept.func(vs) = v.func(vs) / 16;
            kept.magnitude = v.magnitude / 16 + 1;
        }
    }
    record.func = kept.func.name();
    pool.push_back(kept);
    records.push_back(record);
}

Region region_of(const std::vector<int> &extents) {
    Region r;
    for (int e : extents) r.push_back(Range(0, e));
    return r;
}

namespace {

std::vector<Expr> clamped_coords(const Draft &d, const Value &v) {
    std::vector<Expr> args;
    std::vector<Var> vs = d.vars(v.rank());
    for (int i = 0; i < v.rank(); i++) args.push_back(clamp(likely(vs[i]), 0, v.extents[i] - 1));
    return args;
}

}  // namespace

Func repeat_edge(const Draft &d, const Value &v) {
    Func f = named_func(d.name(v.func.name() + "_edge"));
    f(d.vars(v.rank())) = v.func(clamped_coords(d, v));
    return f;
}

Func constant_exterior(const Draft &d, const Value &v, const Expr &outside) {
    Func f = named_func(d.name(v.func.name() + "_exterior"));
    std::vector<Var> vs = d.vars(v.rank());
    Expr out_of_bounds = cast<bool>(false);
    for (int i = 0; i < v.rank(); i++) out_of_bounds = out_of_bounds || vs[i] < 0 || vs[i] >= v.extents[i];
    f(vs) = select(out_of_bounds, cast(v.type, outside), v.func(clamped_coords(d, v)));
    return f;
}

Func bounded(Draft &d, const Value &v) {
    if (d.rng.chance(0.5)) return repeat_edge(d, v);
    return constant_exterior(d, v, 0);
}

std::vector<int> common_extents(const Value &a, const Value &b) {
    std::vector<int> out = a.extents;
    for (int i = 0; i < a.rank(); i++) out[i] = std::min(a.extents[i], b.extents[i]);
    return out;
}

Expr as_float(const Value &v, const std::vector<Expr> &args, bool normalise) {
    Expr e = cast<float>(v.func(args));
    if (normalise && v.magnitude > 1) e = e * (float)(1.0 / v.magnitude);
    return e;
}

}  // namespace random_pipeline

namespace random_pipeline {

std::string type_name(Type t) {
    if (t == UInt(8)) return "u8";
    if (t == UInt(16)) return "u16";
    if (t == Int(32)) return "i32";
    return "f32";
}

Expr convert(const Value &v, const std::vector<Expr> &args, Type t, double *magnitude) {
    Expr e = v.func(args);
    if (v.type == t) {
        *magnitude = v.magnitude;
        return e;
    }
    if (t.is_float()) {
        *magnitude = v.type.is_float() ? v.magnitude : 1;
        return as_float(v, args, !v.type.is_float());
    }
    if (v.type.is_float()) {  // [-1, 1] onto the integer type's range, saturated
        double scale = t == Int(32) ? 65536 : type_bound(t);
        *magnitude = scale;
        return saturating_cast(t, as_float(v, args, true) * (float)scale);
    }
    if (t == Int(32)) {  // from u8 or u16: exact
        *magnitude = type_bound(v.type);
        return cast<int32_t>(e);
    }
    *magnitude = type_bound(t);
    if (v.type == Int(32)) return saturating_cast(t, e);
    if (t.bits() < v.type.bits()) return cast(t, e >> 8);  // u16 -> u8: the high byte
    return cast(t, e) * cast(t, 257);                       // u8 -> u16: 0..255 onto 0..65535
}

}  // namespace random_pipeline

namespace random_pipeline {

Type accumulator_type(Type t) { return t.is_uint() ? UInt(32) : Float(32); }

Expr from_accumulator(const Expr &e, Type t) {
    if (t.is_float()) return e;
    if (t == Int(32)) return cast<int32_t>(round(e));
    return saturating_cast(t, e);
}

}  // namespace random_pipeline
