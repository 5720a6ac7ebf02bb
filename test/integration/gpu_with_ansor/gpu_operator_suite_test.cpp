// Every operator generator, autoscheduled by libansor.so for an OpenCL target
// at its small shape, computes on PoCL (HL_OCL_DEVICE_TYPE=cpu) what its naive
// reference computes. This executable links no Halide compiler, only the
// generated libraries and their runtime, so PoCL's LLVM is alone in it.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "gpu_suite_entries.h"
#include "op_harness.h"

// The plugin's verification accepts a program within 1e-3 of the all-root
// float pipeline (HL_ANSOR_TOLERANCE); the references accumulate in double.
constexpr double tolerance = 1e-3;

TEST_CASE("every operator generator built with libansor.so for OpenCL matches its reference on PoCL") {
    const auto entries = gpu_suite_entries();
    CHECK(entries.size() == ansor_ops::operator_suite().size());
    for (const auto &[op, fn] : entries) {
        CAPTURE(op);
        const auto &shape = ansor_ops::find_op(op).small_shape;
        for (uint32_t seed : {1u, 2u}) {
            CAPTURE(seed);
            ansor_ref::CheckResult r = ansor_ref::check_compiled(op, shape, fn, seed);
            CHECK(r.status == 0);
            CHECK(r.elementwise_error <= tolerance);
        }
    }
}
