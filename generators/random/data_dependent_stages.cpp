// Stages whose accesses depend on data or on earlier iterations:
// histograms (scatter), scans (recurrences along one dim) and lookups
// (tables read through clamped, data-dependent indices).
#include "draft.h"

#include <algorithm>

using namespace Halide;

namespace random_pipeline {

namespace {

// v at `args` mapped onto a bin in [0, bins): the clamp keeps every index
// in bounds whatever the data (NaN included).
Expr bin_index(const Value &v, const std::vector<Expr> &args, int bins) {
    Expr e;
    if (v.type.is_uint()) {
        e = cast<int32_t>((cast(UInt(32), v.func(args)) * bins) >> v.type.bits());
    } else {  // [-1, 1] onto [0, bins)
        e = cast<int32_t>(as_float(v, args, true) * (bins / 2.f) + bins / 2.f);
    }
    return clamp(e, 0, bins - 1);
}

std::vector<Expr> with(std::vector<Expr> args, int dim, const Expr &e) {
    args[dim] = e;
    return args;
}

}  // namespace

bool draw_histogram(Draft &d) {
    Value a = *d.pick();
    int bins = d.rng.pick(std::vector<int>{16, 32, 64, 128, 256});
    std::vector<Var> vs = d.vars(a.rank());
    std::vector<Expr> args = d.coords(a.rank());
    // Per-channel histograms for 3-D values, sometimes.
    bool per_channel = a.rank() == 3 && d.rng.chance(0.5);
    Func hist = d.func("histogram");
    RDom r = per_channel ? RDom(0, a.extents[0], 0, a.extents[1], d.name("rh"))
                         : RDom(region_of(a.extents), d.name("rh"));
    std::vector<Expr> src = {r.x, r.y};
    if (a.rank() == 3) src.push_back(per_channel ? Expr(d.c) : Expr(r.z));
    Var i("i");
    if (per_channel) {
        hist(i, d.c) = 0;
        hist(bin_index(a, src, bins), d.c) += 1;
    } else {
        hist(i) = 0;
        hist(bin_index(a, src, bins)) += 1;
    }
    auto hist_at = [&](const Expr &bin) { return per_channel ? hist(bin, d.c) : hist(bin); };
    int64_t counted = per_channel ? (int64_t)a.extents[0] * a.extents[1] : a.points();
    Value out{d.func("equalised"), Float(32), a.extents, 1};
    std::string what;
    if (d.rng.chance(0.5)) {  // equalisation: the cumulative histogram, a scan over the bins
        Func cdf = d.func("cdf");
        RDom rb(1, bins - 1, d.name("rb"));
        if (per_channel) {
            cdf(i, d.c) = hist(0, d.c);
            cdf(rb.x, d.c) = cdf(rb.x - 1, d.c) + hist(rb.x, d.c);
        } else {
            cdf(i) = hist(0);
            cdf(rb.x) = cdf(rb.x - 1) + hist(rb.x);
        }
        Expr bin = bin_index(a, args, bins);
        out.func(vs) = cast<float>(per_channel ? cdf(bin, d.c) : cdf(bin)) * (float)(1.0 / (double)counted);
        what = "equalised through its cumulative histogram";
    } else {  // the density of each point's bin
        out.func(vs) = cast<float>(hist_at(bin_index(a, args, bins))) * (float)(1.0 / (double)counted);
        what = "density of its bin";
    }
    StageRecord record{StageKind::Histogram, "", a.func.name() + " into " + std::to_string(bins) + " bins" +
                                                     (per_channel ? " per channel, " : ", ") + what};
    record.has_update = true;
    d.add(out, record);
    return true;
}

bool draw_scan(Draft &d) {
    const Value *pa = d.pick([](const Value &v) { return v.extents[0] >= 2 && v.extents[1] >= 2; });
    if (!pa) return false;
    Value a = *pa;
    int dim = d.rng.chance(0.5) ? 1 : 0;
    int n = a.extents[dim];
    std::vector<Var> vs = d.vars(a.rank());
    std::vector<Expr> args = d.coords(a.rank());
    RDom r(1, n - 1, d.name("rs"));
    std::vector<Expr> cur = with(args, dim, r.x), prev = with(args, dim, r.x - 1);
    Value out{d.func("scan"), a.type, a.extents, a.magnitude};
    Func &s = out.func;
    std::string what;
    int kind = (int)d.rng.range(0, 2);
    if (kind == 0 && a.type.is_uint()) {  // prefix sum in i32: n * 65535 < 2^30
        out.type = Int(32);
        out.magnitude = (double)n * type_bound(a.type);
        s(vs) = cast<int32_t>(a.func(args));
        s(cur) = s(prev) + cast<int32_t>(a.func(cur));
        what = "prefix sum";
    } else if (kind == 0 && a.type.is_float()) {
        out.magnitude = (double)n * a.magnitude;
        s(vs) = a.func(args);
        s(cur) = s(prev) + a.func(cur);
        what = "prefix sum";
    } else if (kind == 1 || a.type == Int(32)) {  // a first-order recursive filter (IIR blur)
        float k = 0.5f + (float)d.rng.range(0, 7) / 16.f;
        out.type = Float(32);
        out.magnitude = a.type.is_float() ? a.magnitude : 1;
        s(vs) = as_float(a, args, true);
        s(cur) = s(prev) * k + as_float(a, cur, true) * (1 - k);
        what = "recursive filter";
    } else {
        s(vs) = a.func(args);
        s(cur) = max(s(prev), a.func(cur));
        what = "running max";
    }
    StageRecord record{StageKind::Scan, "", what + " of " + a.func.name() + " along dim " + std::to_string(dim)};
    record.has_update = true;
    d.add(out, record);
    return true;
}

bool draw_lookup(Draft &d) {
    Value a = *d.pick();
    std::vector<Var> vs = d.vars(a.rank());
    std::vector<Expr> args = d.coords(a.rank());
    const Value *table = d.pick([&](const Value &v) { return v.func.name() != a.func.name(); });
    if (table && d.rng.chance(0.5)) {  // gather: a value's column chosen by a's data
        Value b = *table;
        std::vector<Expr> b_args;
        for (int i = 0; i < b.rank(); i++) {
            if (i == 0) {
                b_args.push_back(bin_index(a, args, b.extents[0]));
            } else {
                b_args.push_back(i < a.rank() ? clamp(vs[i], 0, b.extents[i] - 1) : Expr(0));
            }
        }
        Value out{d.func("gather"), b.type, a.extents, b.magnitude};
        out.func(vs) = b.func(b_args);
        d.add(out, {StageKind::Lookup, "", b.func.name() + " at columns chosen by " + a.func.name()});
        return true;
    }
    // A tone curve: a 1-D table of gamma, read at each point's bin.
    int entries = d.rng.pick(std::vector<int>{64, 256, 1024});
    float gamma = 0.25f + (float)d.rng.range(0, 15) / 8.f;
    Var i("i");
    Func curve = d.func("curve");
    Expr t = pow(cast<float>(i) * (1.f / (entries - 1)), gamma);
    bool to_u8 = d.rng.chance(0.5);
    curve(i) = to_u8 ? cast<uint8_t>(t * 255.f + 0.5f) : t;
    Value out{d.func("toned"), to_u8 ? UInt(8) : Float(32), a.extents, to_u8 ? 255.0 : 1.0};
    out.func(vs) = curve(bin_index(a, args, entries));
    d.add(out, {StageKind::Lookup, "", a.func.name() + " through a " + std::to_string(entries) + "-entry curve"});
    return true;
}

}  // namespace random_pipeline
