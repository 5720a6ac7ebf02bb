// The operator-suite check shared by the CPU and GPU integration tests: each
// generated entry point, at its op's small shape, matches the naive
// reference (test/reference) on two random inputs.
#pragma once

#include <doctest/doctest.h>

#include "op_harness.h"

#include <string>
#include <utility>
#include <vector>

using SuiteEntries = std::vector<std::pair<std::string, int (*)(void **)>>;

inline void check_suite_entries(const SuiteEntries &entries, double tolerance) {
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
