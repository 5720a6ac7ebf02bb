#include "measure/pipeline_runner.h"

#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>

namespace ansor {

using namespace Halide;
using namespace Halide::Internal;

namespace {

Buffer<> make_buffer(Type t, const std::vector<DimRange> &region) {
    std::vector<int> sizes;
    for (const auto &r : region) sizes.push_back((int)std::max<int64_t>(1, r.extent));
    Buffer<> b(t, sizes);
    std::vector<int> mins;
    for (const auto &r : region) mins.push_back((int)r.min);
    b.set_min(mins);
    return b;
}

template<typename T>
double element(const void *p, size_t i) {
    return (double)static_cast<const T *>(p)[i];
}

double load(const Type &t, const void *p, size_t i) {
    if (t.is_float()) {
        if (t.bits() == 32) return element<float>(p, i);
        if (t.bits() == 64) return element<double>(p, i);
        return element<uint16_t>(p, i);  // float16: compare bit patterns
    }
    bool s = t.is_int();
    switch (t.bits()) {
    case 1:
    case 8: return s ? element<int8_t>(p, i) : element<uint8_t>(p, i);
    case 16: return s ? element<int16_t>(p, i) : element<uint16_t>(p, i);
    case 32: return s ? element<int32_t>(p, i) : element<uint32_t>(p, i);
    default: return s ? (double)element<int64_t>(p, i) : (double)element<uint64_t>(p, i);
    }
}

}  // namespace

void fill_random(Buffer<> &b, uint64_t seed) {
    std::mt19937_64 rng(seed);
    Type t = b.type();
    size_t n = b.number_of_elements();
    void *p = b.data();
    std::uniform_real_distribution<double> unit(0, 1);
    double hi = 255;
    if (t.is_int() && t.bits() == 8) hi = 127;
    if (t.bits() == 1) hi = 1;
    std::uniform_int_distribution<int> small(0, (int)hi);
    for (size_t i = 0; i < n; i++) {
        if (t.is_float() && t.bits() == 32) static_cast<float *>(p)[i] = (float)unit(rng);
        else if (t.is_float() && t.bits() == 64) static_cast<double *>(p)[i] = unit(rng);
        else if (t.is_float()) static_cast<uint16_t *>(p)[i] = 0x3C00;  // 1.0 in float16
        else if (t.bits() <= 8) static_cast<uint8_t *>(p)[i] = (uint8_t)small(rng);
        else if (t.bits() == 16) static_cast<uint16_t *>(p)[i] = (uint16_t)small(rng);
        else if (t.bits() == 32) static_cast<uint32_t *>(p)[i] = (uint32_t)small(rng);
        else static_cast<uint64_t *>(p)[i] = (uint64_t)small(rng);
    }
}

double max_relative_error(const Buffer<> &got, const void *want) {
    Type t = got.type();
    size_t n = got.number_of_elements();
    const void *g = got.data();
    double scale = 0;
    for (size_t i = 0; i < n; i++) {
        double w = load(t, want, i);
        if (std::isfinite(w)) scale = std::max(scale, std::fabs(w));
    }
    scale = std::max(scale, 1e-30);
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        double a = load(t, g, i), b = load(t, want, i);
        if (std::isnan(a) && std::isnan(b)) continue;
        if (std::isinf(a) || std::isinf(b) || std::isnan(a) || std::isnan(b)) {
            if (a != b) return INFINITY;
            continue;
        }
        if (!t.is_float()) {
            if (a != b) return INFINITY;
            continue;
        }
        // Relative to the element where it is large, to the output's scale
        // where the element itself cancelled down to near zero.
        double err = std::fabs(a - b) / std::max(std::fabs(b), 1e-3 * scale);
        worst = std::max(worst, err);
    }
    return worst;
}

PipelineRunner::PipelineRunner(const PipelineDAG &dag, const State *state, const Target &target)
    : dag_(dag), target_(target) {
    auto copied = deep_copy(dag.outputs(), dag.env());
    const std::map<std::string, Function> &env = copied.second;
    if (state) {
        state->apply(env);
    } else {
        for (const auto &kv : env) {
            bool is_output = false;
            for (const auto &o : dag.outputs()) is_output |= o.name() == kv.first;
            if (!is_output) Func(kv.second).compute_root();
        }
    }
    std::vector<Func> outs;
    for (const Function &f : copied.first) outs.emplace_back(f);
    pipeline_ = Pipeline(outs);
    make_outputs(copied.first);
    bind_inputs();
}

PipelineRunner::PipelineRunner(const PipelineDAG &dag, Pipeline scheduled, const Target &target)
    : dag_(dag), target_(target), pipeline_(std::move(scheduled)) {
    std::vector<Function> outs;
    for (const Func &f : pipeline_.outputs()) outs.push_back(f.function());
    make_outputs(outs);
    bind_inputs();
}

void PipelineRunner::make_outputs(const std::vector<Function> &outputs) {
    for (const Function &f : outputs) {
        auto index = dag_.index_of(f.name());
        if (!index) throw std::invalid_argument("output " + f.name() + " is not in the pipeline's DAG");
        const Node &n = dag_.node(*index);
        for (const Type &t : f.output_types()) outputs_.push_back(make_buffer(t, n.region));
    }
}

void PipelineRunner::bind_inputs() {
    uint64_t seed = 12345;
    for (const InputInfo &in : dag_.inputs()) {
        Parameter p = in.param;
        seed = seed * 1000003 + std::hash<std::string>()(in.name);
        if (in.dimensions == 0) {
            Expr e = simplify(cast(in.type, in.scalar_estimate));
            halide_scalar_value_t v;
            std::memset(&v, 0, sizeof(v));
            if (const int64_t *i = as_const_int(e)) {
                if (in.type.bits() == 8) v.u.i8 = (int8_t)*i;
                else if (in.type.bits() == 16) v.u.i16 = (int16_t)*i;
                else if (in.type.bits() == 32) v.u.i32 = (int32_t)*i;
                else v.u.i64 = *i;
            } else if (const uint64_t *u = as_const_uint(e)) {
                if (in.type.bits() == 1) v.u.b = *u != 0;
                else if (in.type.bits() == 8) v.u.u8 = (uint8_t)*u;
                else if (in.type.bits() == 16) v.u.u16 = (uint16_t)*u;
                else if (in.type.bits() == 32) v.u.u32 = (uint32_t)*u;
                else v.u.u64 = *u;
            } else if (const double *f = as_const_float(e)) {
                if (in.type.bits() == 32) v.u.f32 = (float)*f;
                else v.u.f64 = *f;
            }
            p.set_scalar(in.type, v);
            continue;
        }
        Buffer<> b = make_buffer(in.type, in.region);
        fill_random(b, seed);
        p.set_buffer(b);
        inputs_.push_back(b);
    }
}

void PipelineRunner::compile() { pipeline_.compile_jit(target_); }

void PipelineRunner::run() {
    Realization r(outputs_);
    pipeline_.realize(r, target_);
}

SampledTime PipelineRunner::time(const SamplingOptions &options) {
    return time_in_samples([this] { run(); }, options);
}

size_t PipelineRunner::output_bytes() const {
    size_t n = 0;
    for (const auto &b : outputs_) n += b.size_in_bytes();
    return n;
}

}  // namespace ansor
