#include "measure/pipeline_runner.h"

#include "measure/fresh_process_heap.h"
#include "measure/input_values.h"
#include "measure/measurement_buffers.h"
#include "measure/measurer.h"
#include "measure/runnability.h"
#include "measure/output_check.h"

#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <random>
#include <stdexcept>

#include "util/errors.h"

namespace ansor {

using namespace Halide;
using namespace Halide::Internal;

namespace {

std::vector<Buffer<>> dense_copies(const std::vector<Buffer<>> &outputs) {
    std::vector<Buffer<>> out;
    for (const Buffer<> &b : outputs) out.push_back(b.copy());
    return out;
}

// The outputs of one run of `runner` under the rounding mode `mode`.
std::vector<Buffer<>> outputs_rounding(PipelineRunner &runner, int mode) {
    if (std::fesetround(mode) != 0) throw std::runtime_error("cannot set the floating-point rounding mode");
    try {
        runner.run();
    } catch (...) {
        std::fesetround(FE_TONEAREST);
        throw;
    }
    std::fesetround(FE_TONEAREST);
    return dense_copies(runner.outputs());
}

template<typename T>
void widest_move(Buffer<> &spread, const Buffer<> &nearest, const Buffer<> &up, const Buffer<> &down) {
    const size_t n = nearest.number_of_elements();
    const T *a = static_cast<const T *>(nearest.data());
    const T *b = static_cast<const T *>(up.data());
    const T *c = static_cast<const T *>(down.data());
    T *out = static_cast<T *>(spread.data());
    for (size_t i = 0; i < n; i++) {
        const double x = (double)a[i], y = (double)b[i], z = (double)c[i];
        double m = std::max(std::fabs(y - x), std::fabs(z - x));
        if (!std::isfinite(m)) m = 0;  // NaN and Inf are judged on their own (output_check.h)
        // An integer move wider than the type (int8's -128 to 127) saturates.
        if constexpr (std::is_integral_v<T>) m = std::min(m, (double)std::numeric_limits<T>::max());
        out[i] = (T)m;
    }
}

}  // namespace

std::vector<Buffer<>> rounding_spread(PipelineRunner &runner) {
    const std::vector<Buffer<>> up = outputs_rounding(runner, FE_UPWARD);
    const std::vector<Buffer<>> down = outputs_rounding(runner, FE_DOWNWARD);
    const std::vector<Buffer<>> nearest = outputs_rounding(runner, FE_TONEAREST);
    std::vector<Buffer<>> spread;
    for (size_t i = 0; i < nearest.size(); i++) {
        const Type t = nearest[i].type();
        Buffer<> s = nearest[i].copy();
        if (!t.is_float()) {
            // An integer computed through float arithmetic moves where a
            // conversion (a LUT index, a quantised level) rounds the other way.
            const bool is_signed = t.is_int();
            switch (t.bits()) {
            case 1:
            case 8: is_signed ? widest_move<int8_t>(s, nearest[i], up[i], down[i]) : widest_move<uint8_t>(s, nearest[i], up[i], down[i]); break;
            case 16: is_signed ? widest_move<int16_t>(s, nearest[i], up[i], down[i]) : widest_move<uint16_t>(s, nearest[i], up[i], down[i]); break;
            case 32: is_signed ? widest_move<int32_t>(s, nearest[i], up[i], down[i]) : widest_move<uint32_t>(s, nearest[i], up[i], down[i]); break;
            default: is_signed ? widest_move<int64_t>(s, nearest[i], up[i], down[i]) : widest_move<uint64_t>(s, nearest[i], up[i], down[i]); break;
            }
        } else if (t.bits() == 64) {
            widest_move<double>(s, nearest[i], up[i], down[i]);
        } else if (t.bits() == 32) {
            widest_move<float>(s, nearest[i], up[i], down[i]);
        } else if (t.is_bfloat()) {
            widest_move<bfloat16_t>(s, nearest[i], up[i], down[i]);
        } else {
            widest_move<float16_t>(s, nearest[i], up[i], down[i]);
        }
        spread.push_back(s);
    }
    return spread;
}

std::vector<Buffer<>> strict_float_outputs(PipelineRunner &runner) {
    std::vector<Buffer<>> out;
    {
        PipelineRunner strict(runner.dag(), Pipeline(runner.pipeline().outputs()),
                              runner.target().with_feature(Target::StrictFloat));
        strict.compile();
        strict.run();
        out = dense_copies(strict.outputs());
    }
    runner.bind_own_inputs();
    return out;
}

double max_relative_error(const Buffer<> &got, const void *want) {
    OutputRule rule;
    rule.name = got.name();
    rule.type = got.type();
    rule.tolerance = INFINITY;  // report the error, do not judge it
    OutputComparison c = compare_output(got, want, rule);
    return c.ok() ? c.worst : INFINITY;
}

Pipeline scheduled_pipeline(const PipelineDAG &dag, const State *state) {
    auto copied = deep_copy(dag.outputs(), dag.env());
    const std::map<std::string, Function> &env = copied.second;
    use_stand_ins(env, embedded_stand_ins(dag));
    if (state) {
        state->apply(env);
    } else {
        // Every Func at root, but those whose root buffer Halide could not
        // allocate: inlined, which computes the same values.
        const std::vector<bool> inlined = reference_inlined(dag);
        for (size_t i = 0; i < dag.nodes().size(); i++) {
            const Node &n = dag.node((int)i);
            if (!n.is_output && !inlined[i]) Func(env.at(n.name)).compute_root();
        }
    }
    std::vector<Func> outs;
    for (const Function &f : copied.first) outs.emplace_back(f);
    return Pipeline(outs);
}

PipelineRunner::PipelineRunner(const PipelineDAG &dag, const State *state, const Target &target)
    : PipelineRunner(dag, scheduled_pipeline(dag, state), target) {}

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
        for (const Type &t : f.output_types()) {
            outputs_.push_back(make_measurement_buffer(t, n.region, n.output_constraints));
        }
    }
}

std::vector<uint64_t> measurement_input_seeds(const PipelineDAG &dag) {
    std::vector<uint64_t> seeds;
    uint64_t seed = 12345;
    for (const InputInfo &in : dag.inputs()) {
        seed = seed * 1000003 + std::hash<std::string>()(in.name);
        if (in.dimensions > 0) seeds.push_back(seed);
    }
    return seeds;
}

Buffer<> make_measurement_input(const PipelineDAG &dag, const InputInfo &in, const std::vector<DimRange> &region,
                                uint64_t seed) {
    Buffer<> b = make_measurement_buffer(in.type, region);
    fill_random(b, seed, input_value_range(in.type, largest_reduction(dag)));
    if (in.constraints.pins_stride()) {
        Buffer<> laid_out = make_measurement_buffer(in.type, region, in.constraints);
        laid_out.copy_from(b);
        b = laid_out;
    }
    return b;
}

void PipelineRunner::bind_inputs() {
    const std::vector<uint64_t> seeds = measurement_input_seeds(dag_);
    for (const InputInfo &in : dag_.inputs()) {
        Parameter p = in.param;
        if (in.dimensions == 0) {
            if (!in.scalar_estimate.defined()) {
                throw UserError("scalar Param '" + in.name + "' has no estimate to run the pipeline with");
            }
            Expr e = simplify(cast(in.type, in.scalar_estimate));
            if (!is_const(e)) {
                throw UserError("scalar Param '" + in.name + "' has an estimate that is not a constant");
            }
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
        const uint64_t seed = seeds.at(input_seeds_.size());
        input_seeds_.push_back(seed);
        Buffer<> b = make_measurement_input(dag_, in, in.region, seed);
        p.set_buffer(b);
        inputs_.push_back(b);
    }
}

namespace {

void *jit_malloc(Halide::JITUserContext *, size_t bytes) { return recording_halide_malloc(bytes); }
void jit_free(Halide::JITUserContext *, void *block) { recording_halide_free(block); }

}  // namespace

void PipelineRunner::compile() {
    pipeline_.jit_handlers().custom_malloc = jit_malloc;
    pipeline_.jit_handlers().custom_free = jit_free;
    pipeline_.compile_jit(target_);
    cover_what_is_read();
}

void PipelineRunner::cover_what_is_read() {
    // Halide's bounds inference on the compiled pipeline: an input read
    // where the DAG's analysis could not follow (through an extern stage, a
    // data-dependent index) or by this schedule beyond the reference's gets
    // a buffer over the union; values depend on coordinates alone, so
    // every runner agrees on the overlap.
    std::vector<const InputInfo *> buffers;
    for (const InputInfo &in : dag_.inputs()) {
        if (in.dimensions > 0) buffers.push_back(&in);
    }
    if (buffers.empty()) return;
    for (const InputInfo *in : buffers) Parameter(in->param).set_buffer(Buffer<>());
    try {
        Realization r(outputs_);
        pipeline_.infer_input_bounds(r, target_);
    } catch (const Halide::Error &) {
        // Bounds inference needs a bounds query the pipeline may not
        // support; the DAG's regions stand.
    }
    for (size_t i = 0; i < buffers.size(); i++) {
        const InputInfo &in = *buffers[i];
        Parameter p = in.param;
        Buffer<> inferred = p.buffer();
        Buffer<> &mine = inputs_[i];
        std::vector<DimRange> region;
        bool grows = false;
        for (int d = 0; d < in.dimensions; d++) {
            int64_t lo = mine.dim(d).min(), hi = (int64_t)mine.dim(d).min() + mine.dim(d).extent();
            if (inferred.defined() && inferred.dimensions() == in.dimensions) {
                const bool pinned = d < (int)in.constraints.min.size() && (in.constraints.min[d] || in.constraints.extent[d]);
                int64_t ilo = inferred.dim(d).min(), ihi = ilo + inferred.dim(d).extent();
                if (!pinned && (ilo < lo || ihi > hi)) grows = true;
                if (!pinned) lo = std::min(lo, ilo), hi = std::max(hi, ihi);
            }
            region.push_back({lo, hi - lo});
        }
        if (grows) mine = make_measurement_input(dag_, in, region, input_seeds_[i]);
        p.set_buffer(mine);
    }
}

void PipelineRunner::bind_own_inputs() {
    size_t next = 0;
    for (const InputInfo &in : dag_.inputs()) {
        if (in.dimensions > 0) Parameter(in.param).set_buffer(inputs_.at(next++));
    }
}

void PipelineRunner::run() {
    Realization r(outputs_);
    pipeline_.realize(r, target_);
}

void PipelineRunner::warm_up() {
    start_heap_as_a_fresh_process();
    reset_largest_block();
    run();
    allocate_as_a_fresh_process_after_its_first_run(largest_block());
}

SamplingOptions sampling_options(const MeasureOptions &options) {
    return sampling_options(options.measure_seconds, options.repeats, options.max_repeats);
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
