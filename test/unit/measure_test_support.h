#pragma once
// What the unit tests that measure programs share: the CPU target they
// measure on, measurement options for correctness (one timed run), and the
// check that every program computes what the reference computes.
#include "measure/measurer.h"
#include "measure/subprocess.h"
#include "sketch/sketch_rules.h"
#include "state/state.h"
#include "util/target.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace ansor_test {

// The project machine's CPU (Zen 5) without AVX512-FP16, which `host` would pick.
// out(x) = ext(x) * 0.5 + pre(x), pre(x) = in(x) + 1, where ext is the
// extern stage `extern_function` (defined by the test) named `stage_name`,
// over 256 points: a pipeline whose candidates run the test's own code.
struct ExternStagePipe {
    Halide::Func out;
    std::vector<Halide::Internal::Function> functions() const { return {out.function()}; }
};

inline ExternStagePipe extern_stage_pipe(const std::string &extern_function, const std::string &stage_name) {
    using namespace Halide;
    ImageParam in(Float(32), 1, "in");
    in.dim(0).set_estimate(0, 256);
    Var x("x");
    Func pre("pre"), ext(stage_name), out("after");
    pre(x) = in(x) + 1.f;
    ext.define_extern(extern_function, {pre}, Float(32), 1);
    out(x) = ext(x) * 0.5f + pre(x);
    out.set_estimate(x, 0, 256);
    return {out};
}

// The body of the extern stage of extern_stage_pipe: a bounds query asks
// for the output's region of the input; otherwise out(x) = 2 * in(x) + offset.
inline void extern_stage_double(halide_buffer_t *in, halide_buffer_t *out, float offset = 0.f) {
    if (in->is_bounds_query()) {
        in->dim[0].min = out->dim[0].min;
        in->dim[0].extent = out->dim[0].extent;
        return;
    }
    const float *src = reinterpret_cast<const float *>(in->host);
    float *dst = reinterpret_cast<float *>(out->host);
    for (int i = 0; i < out->dim[0].extent; i++) dst[i] = 2.f * src[out->dim[0].min + i - in->dim[0].min] + offset;
}

// Every Func of `dag` computed at root.
inline ansor::State every_func_at_root(const ansor::PipelineDAG &dag) {
    ansor::State s(dag);
    for (size_t i = 0; i < dag.nodes().size(); i++) ansor::add_compute_root(s, (int)i);
    return s;
}

inline Halide::Target cpu_target() {
    return Halide::Target(ansor::project_cpu_target());
}

// Only correctness matters: one run, no timing window, a generous compile limit.
inline ansor::MeasureOptions correctness_options() {
    ansor::MeasureOptions o;
    o.target = cpu_target();
    o.threads = 2;
    o.repeats = 1;
    o.measure_seconds = 0;
    // Correctness is under test, not compile time: a matrix chain's program
    // unrolled 512 steps of 32-float vectors took over 60 s to compile on a
    // 2-vCPU AVX2 machine with the other core busy (test_fusion_rules).
    o.timeout_s = 180;
    return o;
}

// Measures `programs` in the forked measurer: every one must run and match
// the reference (its schedule printed when it does not).
inline void expect_all_correct(const ansor::PipelineDAG &dag, const std::vector<ansor::State> &programs) {
    ansor::ForkMeasurer measurer(dag, correctness_options());
    auto results = measurer.measure(programs);
    REQUIRE(results.size() == programs.size());
    for (size_t i = 0; i < programs.size(); i++) {
        CAPTURE(programs[i].source());
        CHECK_MESSAGE(results[i].ok, results[i].error);
    }
}

// For a test case that must run in a fresh process (its heap as a new
// process has it, not after the earlier cases): in the test process, runs
// `test_case` alone in a fresh copy of this binary with `env` set, checks
// that it passed, and returns false; in that copy, returns true.
inline bool in_fresh_copy_of_this_test(const char *test_case, const char *env) {
    if (std::getenv(env)) return true;
    const ansor::ProcessResult child = ansor::run_process({"/proc/self/exe", std::string("--test-case=") + test_case},
                                                          {std::string(env) + "=1"});
    INFO(child.output);
    CHECK(child.exit_code == 0);
    // The filter found the case (doctest pads its counts to the widest column).
    std::string squeezed;
    for (char c : child.output) {
        if (c != ' ' || squeezed.empty() || squeezed.back() != ' ') squeezed += c;
    }
    CHECK(squeezed.find("test cases: 1 | 1 passed") != std::string::npos);
    return false;
}

}  // namespace ansor_test
