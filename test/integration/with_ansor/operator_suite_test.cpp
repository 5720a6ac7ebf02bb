// Every operator generator, autoscheduled by libansor.so at its small shape
// (add_halide_library ... AUTOSCHEDULER Ansor::Ansor), computes what its
// naive reference computes.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "suite_check.h"
#include "suite_entries.h"

TEST_CASE("every operator generator built with libansor.so matches its reference") {
    // The plugin accepts a candidate within 1e-3 (HL_ANSOR_TOLERANCE) of the
    // all-root float pipeline; the references accumulate in double.
    check_suite_entries(suite_entries(), 1e-3);
}
