#include "measure/pipeline_runner.h"

#include "measure/input_values.h"
#include "measure/output_check.h"

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

}  // namespace

double max_relative_error(const Buffer<> &got, const void *want) {
    OutputRule rule;
    rule.name = got.name();
    rule.type = got.type();
    rule.tolerance = INFINITY;  // report the error, do not judge it
    OutputComparison c = compare_output(got, want, rule);
    return c.ok() ? c.worst : INFINITY;
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
    const int64_t reduction = largest_reduction(dag_);
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
        fill_random(b, seed, input_value_range(in.type, reduction));
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
