#pragma once
// A pipeline scheduled by a named autoscheduler plugin (Ansor, Adams2019,
// Mullapudi2016: loaded with Halide::load_plugin), compiled with the JIT,
// run on the measurer's inputs and compared with the same pipeline with
// every Func at root. Used by ansor_fuzz (in a forked child) and by the
// auto_schedule situation tests.
#include <Halide.h>

#include <functional>
#include <string>
#include <vector>

namespace ansor_fuzz {

// Builds the pipeline afresh (new Funcs each call), estimates set on every
// input and output; returns its outputs.
using PipelineBuilder = std::function<std::vector<Halide::Func>()>;

// The pipeline with every Func at root, on the measurer's inputs: its
// outputs and their rounding spread (ansor::rounding_spread).
struct Reference {
    std::vector<Halide::Buffer<>> outputs;
    std::vector<Halide::Buffer<>> spread;
};
Reference reference_outputs(const PipelineBuilder &build, const Halide::Target &target, int parallelism);

// "" when every output matches `reference` (reference_outputs of the same
// builder) under the measurer's rules (ansor::compare_outputs, with
// `tolerance` as HL_ANSOR_TOLERANCE, and a second look with strict_float as
// the measurer takes: strict_float_check.h), else why not ("wrong output:
// ..."). Throws what scheduling, compiling or running throws.
std::string check_scheduled(const PipelineBuilder &build, const std::string &scheduler, const Halide::Target &target,
                            int parallelism, double tolerance, const Reference &reference);

}  // namespace ansor_fuzz
