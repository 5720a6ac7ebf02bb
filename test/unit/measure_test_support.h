#pragma once
// What the unit tests that measure programs share: the CPU target they
// measure on, measurement options for correctness (one timed run), and the
// check that every program computes what the reference computes.
#include "measure/measurer.h"
#include "state/state.h"

#include <doctest/doctest.h>

#include <vector>

namespace ansor_test {

// The project machine's CPU (Zen 5) without AVX512-FP16, which `host` would pick.
inline Halide::Target cpu_target() {
    return Halide::Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");
}

// Only correctness matters: one run, no timing window, a generous compile limit.
inline ansor::MeasureOptions correctness_options() {
    ansor::MeasureOptions o;
    o.target = cpu_target();
    o.threads = 2;
    o.repeats = 1;
    o.measure_seconds = 0;
    o.timeout_s = 60;
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

}  // namespace ansor_test
