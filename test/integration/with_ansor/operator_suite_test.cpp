// Every operator generator, autoscheduled by libansor.so at its small shape
// (add_halide_library ... AUTOSCHEDULER Ansor::Ansor), computes what its
// naive reference computes.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "op_harness.h"
#include "suite_entries.h"

// The plugin accepts a candidate within 1e-3 (HL_ANSOR_TOLERANCE) of the
// all-root float pipeline; the references accumulate in double.
constexpr double tolerance = 1e-3;

TEST_CASE("every operator generator built with libansor.so matches its reference") {
    const auto entries = suite_entries();
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
