// Spatial stages: 2-D stencils (over a boundary condition or shrinking the
// domain), x2 down- and upsampling, and transposes.
#include "draft.h"

#include <algorithm>
#include <cstdlib>

using namespace Halide;

namespace random_pipeline {

namespace {

struct Kernel {
    int w, h;
};

bool large_enough(const Value &v, int min_extent) {
    return v.extents[0] >= min_extent && v.extents[1] >= min_extent;
}

// args with dims 0 and 1 replaced.
std::vector<Expr> at(std::vector<Expr> args, const Expr &x, const Expr &y) {
    args[0] = x;
    args[1] = y;
    return args;
}

Expr widened(const Func &f, const std::vector<Expr> &args, Type t) { return cast(accumulator_type(t), f(args)); }

}  // namespace

bool draw_stencil(Draft &d) {
    const Value *pa = d.pick([](const Value &v) { return large_enough(v, 12); });
    if (!pa) return false;
    Value a = *pa;
    static const std::vector<Kernel> kernels = {{3, 3}, {3, 3}, {3, 3}, {5, 1}, {1, 5}, {3, 1},
                                                {1, 3}, {5, 5}, {7, 1}, {1, 7}};
    Kernel k = d.rng.pick(kernels);
    // A "valid" stencil shrinks the domain instead of reading a boundary condition.
    bool valid = d.rng.chance(0.25);
    Func src = valid ? a.func : bounded(d, a);
    int ox = valid ? 0 : k.w / 2, oy = valid ? 0 : k.h / 2;
    std::vector<int> extents = a.extents;
    if (valid) {
        extents[0] -= k.w - 1;
        extents[1] -= k.h - 1;
    }
    std::vector<Expr> args = d.coords(a.rank());
    std::vector<Var> vs = d.vars(a.rank());
    Type acc = accumulator_type(a.type);
    bool signed_weights = !a.type.is_uint();
    Value out{d.func("stencil"), a.type, extents, a.magnitude};
    StageRecord record{StageKind::Stencil, "", ""};
    record.boundary = !valid;
    int weight_sum = 0;
    if (d.rng.chance(0.25)) {
        // Written as Halide blurs often are: an RDom over the taps, weights from the tap's position.
        RDom r(0, k.w, 0, k.h, d.name("taps"));
        Expr w = 1 + cast<int>(r.x == k.w / 2) + cast<int>(r.y == k.h / 2);
        for (int j = 0; j < k.h; j++) {
            for (int i = 0; i < k.w; i++) weight_sum += 1 + (i == k.w / 2) + (j == k.h / 2);
        }
        Func conv = d.func("conv");
        conv(vs) = cast(acc, 0);
        conv(vs) += cast(acc, w) * widened(src, at(args, d.x + r.x - ox, d.y + r.y - oy), a.type);
        out.func(vs) = from_accumulator(conv(vs) / cast(acc, weight_sum), a.type);
        record.has_update = true;
    } else {
        Expr sum;
        for (int j = 0; j < k.h; j++) {
            for (int i = 0; i < k.w; i++) {
                int w = (int)d.rng.range(signed_weights ? -2 : 0, 4);
                if (i == k.w / 2 && j == k.h / 2 && w <= 0) w = 4;  // the centre always counts
                if (w == 0) continue;
                weight_sum += std::abs(w);
                Expr tap = cast(acc, w) * widened(src, at(args, d.x + i - ox, d.y + j - oy), a.type);
                sum = sum.defined() ? sum + tap : tap;
            }
        }
        out.func(vs) = from_accumulator(sum / cast(acc, weight_sum), a.type);
    }
    // |sum of w * a| / sum of |w| <= max |a|; unsigned weights are >= 0.
    record.description = std::to_string(k.w) + "x" + std::to_string(k.h) + " of " + a.func.name() +
                         (valid ? " (valid)" : " (boundary)");
    d.add(out, record);
    return true;
}

bool draw_downsample(Draft &d) {
    const Value *pa = d.pick([](const Value &v) { return large_enough(v, 16); });
    if (!pa) return false;
    Value a = *pa;
    std::vector<Expr> args = d.coords(a.rank());
    std::vector<Var> vs = d.vars(a.rank());
    std::vector<int> extents = a.extents;
    extents[0] /= 2;
    extents[1] /= 2;
    Type acc = accumulator_type(a.type);
    Value out{d.func("down"), a.type, extents, a.magnitude};
    StageRecord record{StageKind::Downsample, "", ""};
    Expr x2 = 2 * d.x, y2 = 2 * d.y;
    if (d.rng.chance(0.4)) {  // 2x2 box: in bounds by construction
        Expr s = widened(a.func, at(args, x2, y2), a.type) + widened(a.func, at(args, x2 + 1, y2), a.type) +
                 widened(a.func, at(args, x2, y2 + 1), a.type) + widened(a.func, at(args, x2 + 1, y2 + 1), a.type);
        out.func(vs) = from_accumulator(s / cast(acc, 4), a.type);
        record.description = "2x2 box of " + a.func.name();
    } else {  // separable [1 2 1] around the even samples, over repeated edges
        Func src = repeat_edge(d, a);
        Func dx = d.func("down_x");
        dx(vs) = widened(src, at(args, x2 - 1, d.y), a.type) + cast(acc, 2) * widened(src, at(args, x2, d.y), a.type) +
                 widened(src, at(args, x2 + 1, d.y), a.type);
        Expr s = dx(at(args, d.x, y2 - 1)) + cast(acc, 2) * dx(at(args, d.x, y2)) + dx(at(args, d.x, y2 + 1));
        out.func(vs) = from_accumulator(s / cast(acc, 16), a.type);
        record.boundary = true;
        record.description = "[1 2 1] x2 down of " + a.func.name();
    }
    d.add(out, record);
    return true;
}

bool draw_upsample(Draft &d) {
    const Value *pa = d.pick([&d](const Value &v) { return v.points() * 4 <= d.max_points; });
    if (!pa) return false;
    Value a = *pa;
    std::vector<Expr> args = d.coords(a.rank());
    std::vector<Var> vs = d.vars(a.rank());
    std::vector<int> extents = a.extents;
    extents[0] *= 2;
    extents[1] *= 2;
    Value out{d.func("up"), a.type, extents, a.magnitude};
    StageRecord record{StageKind::Upsample, "", ""};
    if (d.rng.chance(0.5)) {
        out.func(vs) = a.func(at(args, d.x / 2, d.y / 2));
        record.description = "nearest x2 up of " + a.func.name();
    } else {
        Type acc = accumulator_type(a.type);
        Func src = repeat_edge(d, a);
        Func ux = d.func("up_x");
        ux(vs) = (widened(src, at(args, d.x / 2, d.y), a.type) + widened(src, at(args, (d.x + 1) / 2, d.y), a.type)) /
                 cast(acc, 2);
        out.func(vs) = from_accumulator((ux(at(args, d.x, d.y / 2)) + ux(at(args, d.x, (d.y + 1) / 2))) / cast(acc, 2),
                                        a.type);
        record.boundary = true;
        record.description = "linear x2 up of " + a.func.name();
    }
    d.add(out, record);
    return true;
}

bool draw_transpose(Draft &d) {
    Value a = *d.pick();
    std::vector<std::vector<int>> perms;
    if (a.rank() == 2) {
        perms = {{1, 0}};
    } else {
        perms = {{1, 0, 2}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 2, 0}};
    }
    const std::vector<int> &p = d.rng.pick(perms);  // out's dim i is a's dim p[i]
    std::vector<Var> vs = d.vars(a.rank());
    std::vector<Expr> src(a.rank());
    std::vector<int> extents(a.rank());
    std::string order;
    for (int i = 0; i < a.rank(); i++) {
        src[p[i]] = vs[i];
        extents[i] = a.extents[p[i]];
        order += std::to_string(p[i]);
    }
    Value out{d.func("transpose"), a.type, extents, a.magnitude};
    out.func(vs) = a.func(src);
    d.add(out, {StageKind::Transpose, "", a.func.name() + " dims " + order});
    return true;
}

}  // namespace random_pipeline
