#include "op_harness.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

namespace ansor_ref {

namespace {

int window_out(int in, int k, int s, int p, int d = 1) {
    return (in + 2 * p - d * (k - 1) - 1) / s + 1;
}

}  // namespace

BufferDims buffer_dims(const std::string &op, const ansor_ops::Shape &shape) {
    auto v = [&](const char *name) { return ansor_ops::param(shape, name); };
    if (op == "c1d") {
        int OL = window_out(v("L"), v("k"), v("s"), v("p"));
        return {{{v("CI"), v("L"), v("N")}, {v("CO"), v("CI"), v("k")}}, {v("CO"), OL, v("N")}};
    }
    if (op == "c2d" || op == "grp" || op == "dil" || op == "conv_layer") {
        int d = op == "dil" ? v("dilation") : 1, g = op == "grp" ? v("groups") : 1;
        int OH = window_out(v("H"), v("k"), v("s"), v("p"), d);
        int OW = window_out(v("W"), v("k"), v("s"), v("p"), d);
        BufferDims b{{{v("CI"), v("W"), v("H"), v("N")}, {v("CO"), v("CI") / g, v("k"), v("k")}},
                     {v("CO"), OW, OH, v("N")}};
        if (op == "conv_layer") b.inputs.insert(b.inputs.end(), {{v("CO")}, {v("CO")}});
        return b;
    }
    if (op == "c3d") {
        int OD = window_out(v("D"), v("k"), v("s"), v("p"));
        int OH = window_out(v("H"), v("k"), v("s"), v("p"));
        int OW = window_out(v("W"), v("k"), v("s"), v("p"));
        return {{{v("CI"), v("W"), v("H"), v("D"), v("N")}, {v("CO"), v("CI"), v("k"), v("k"), v("k")}},
                {v("CO"), OW, OH, OD, v("N")}};
    }
    if (op == "gmm") {
        return {{{v("K"), v("N"), v("B")}, {v("M"), v("K"), v("B")}}, {v("M"), v("N"), v("B")}};
    }
    if (op == "dep") {
        int OH = window_out(v("H"), v("k"), v("s"), v("p"));
        int OW = window_out(v("W"), v("k"), v("s"), v("p"));
        return {{{v("C"), v("W"), v("H"), v("N")}, {v("C"), v("k"), v("k")}}, {v("C"), OW, OH, v("N")}};
    }
    if (op == "t2d") {
        int OH = (v("H") - 1) * v("s") - 2 * v("p") + v("k");
        int OW = (v("W") - 1) * v("s") - 2 * v("p") + v("k");
        return {{{v("CI"), v("W"), v("H"), v("N")}, {v("CO"), v("CI"), v("k"), v("k")}},
                {v("CO"), OW, OH, v("N")}};
    }
    if (op == "cap") {
        int C = v("caps");
        int OH = window_out(v("H"), v("k"), v("s"), v("p"));
        int OW = window_out(v("W"), v("k"), v("s"), v("p"));
        return {{{C, C, v("CI"), v("W"), v("H"), v("N")}, {C, C, v("CO"), v("CI"), v("k"), v("k")}},
                {C, C, v("CO"), OW, OH, v("N")}};
    }
    if (op == "nrm") {
        return {{{v("N"), v("M"), v("B")}}, {v("B")}};
    }
    if (op == "tbs") {
        std::vector<int> qk = {v("dim"), v("heads"), v("seq"), v("batch")};
        return {{qk, qk}, {v("seq"), v("seq"), v("heads"), v("batch")}};
    }
    throw std::out_of_range("unknown operator " + op);
}

std::vector<Buf> make_inputs(const std::string &op, const ansor_ops::Shape &shape, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(-1.f, 1.f);
    std::vector<Buf> inputs;
    for (const auto &dims : buffer_dims(op, shape).inputs) {
        Buf b(dims);
        b.for_each_value([&](float &x) { x = unit(rng); });
        inputs.push_back(std::move(b));
    }
    return inputs;
}

Buf make_output(const std::string &op, const ansor_ops::Shape &shape) {
    Buf b(buffer_dims(op, shape).output);
    b.fill(0.f);
    return b;
}

void run_reference(const std::string &op, const ansor_ops::Shape &shape,
                   const std::vector<Buf> &in, Buf &out) {
    auto v = [&](const char *name) { return ansor_ops::param(shape, name); };
    if (op == "c1d") c1d(in.at(0), in.at(1), out, v("s"), v("p"));
    else if (op == "c2d") c2d(in.at(0), in.at(1), out, v("s"), v("p"));
    else if (op == "c3d") c3d(in.at(0), in.at(1), out, v("s"), v("p"));
    else if (op == "gmm") gmm(in.at(0), in.at(1), out);
    else if (op == "grp") grp(in.at(0), in.at(1), out, v("s"), v("p"), v("groups"));
    else if (op == "dil") dil(in.at(0), in.at(1), out, v("s"), v("p"), v("dilation"));
    else if (op == "dep") dep(in.at(0), in.at(1), out, v("s"), v("p"));
    else if (op == "t2d") t2d(in.at(0), in.at(1), out, v("s"), v("p"));
    else if (op == "cap") cap(in.at(0), in.at(1), out, v("s"), v("p"));
    else if (op == "nrm") nrm(in.at(0), out);
    else if (op == "conv_layer") conv_layer(in.at(0), in.at(1), in.at(2), in.at(3), out, v("s"), v("p"));
    else if (op == "tbs") tbs(in.at(0), in.at(1), out);
    else throw std::out_of_range("unknown operator " + op);
}

namespace {

bool same_shape(const Buf &a, const Buf &b) {
    if (a.dimensions() != b.dimensions()) return false;
    for (int d = 0; d < a.dimensions(); d++) {
        if (a.dim(d).min() != b.dim(d).min() || a.dim(d).extent() != b.dim(d).extent()) return false;
    }
    return true;
}

double max_abs(const Buf &b) {
    double m = 0;
    b.for_each_value([&](const float &x) { m = std::max(m, (double)std::fabs(x)); });
    return m;
}

// Largest |got - want| / max(|want|, floor); infinity on NaN or a shape mismatch.
double worst_error(const Buf &got, const Buf &want, bool per_element) {
    if (!same_shape(got, want)) return std::numeric_limits<double>::infinity();
    const double scale = std::max(max_abs(want), 1e-30);
    double worst = 0;
    got.for_each_element([&](const int *pos) {
        const double a = got(pos), b = want(pos);
        const double denom = per_element ? std::max(std::fabs(b), 1e-3 * scale) : scale;
        const double err = std::fabs(a - b) / denom;
        worst = std::isnan(err) ? std::numeric_limits<double>::infinity() : std::max(worst, err);
    });
    return worst;
}

}  // namespace

double max_relative_error(const Buf &got, const Buf &want) { return worst_error(got, want, false); }

double max_elementwise_error(const Buf &got, const Buf &want) { return worst_error(got, want, true); }

CheckResult check_compiled(const std::string &op, const ansor_ops::Shape &shape, ArgvFunction fn,
                           uint32_t seed) {
    std::vector<Buf> inputs = make_inputs(op, shape, seed);
    Buf got = make_output(op, shape), want = make_output(op, shape);
    std::vector<void *> args;
    for (Buf &b : inputs) {
        b.set_host_dirty();  // a GPU pipeline copies the host data to the device only when it is marked dirty
        args.push_back(b.raw_buffer());
    }
    args.push_back(got.raw_buffer());

    CheckResult r;
    r.status = fn(args.data());
    got.copy_to_host();
    run_reference(op, shape, inputs, want);
    r.relative_error = max_relative_error(got, want);
    r.elementwise_error = max_elementwise_error(got, want);
    return r;
}

}  // namespace ansor_ref
