// Every operator generator, autoscheduled by libansor.so for an OpenCL target
// at its small shape, computes on PoCL (HL_OCL_DEVICE_TYPE=cpu) what its naive
// reference computes. This executable links no Halide compiler, only the
// generated libraries and their runtime, so PoCL's LLVM is alone in it.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "gpu_suite_entries.h"
#include "suite_check.h"

TEST_CASE("every operator generator built with libansor.so for OpenCL matches its reference on PoCL") {
    // The plugin's verification accepts a program within 1e-3 of the all-root
    // float pipeline (HL_ANSOR_TOLERANCE); the references accumulate in double.
    check_suite_entries(gpu_suite_entries(), 1e-3);
}
