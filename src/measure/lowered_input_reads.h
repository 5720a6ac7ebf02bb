#pragma once
// What a scheduled pipeline reads of its inputs, read off its lowered code
// without running anything, so that it works for any target. Halide's
// lowering checks, for every buffer input and dimension, that the buffer
// holds the region the compiled program touches (an assertion failing with
// halide_error_access_out_of_bounds), the region's bounds written as
// expressions of the output buffers' regions and the scalar parameters.
// With those set to the pipeline's estimates, they are numbers: a schedule whose over-compute (a split
// shifted below a clamped region, a rounded-up tile) reaches past the region
// the algorithm reads makes a library that fails on inputs of the pipeline's
// sizes, the way the measurement's bounds query finds it after the fact.
#include "dag/pipeline_dag.h"

#include <Halide.h>

#include <optional>
#include <string>

namespace ansor {

struct InputOverRead {
    std::string input;
    int dim = 0;
    int64_t min = 0, extent = 0;                  // what the program reads
    int64_t allowed_min = 0, allowed_extent = 0;  // what the algorithm reads
    std::string describe() const;
};

// Whether `in` read over [min, min + extent) in dimension `dim` reaches
// beyond [allowed_min, allowed_min + allowed_extent); a dimension whose
// bounds the input's constraints pin, or an empty read, is not judged.
std::optional<InputOverRead> read_beyond(const InputInfo &in, int dim, int64_t min, int64_t extent,
                                         int64_t allowed_min, int64_t allowed_extent);

// The first buffer input dimension that `module`'s function `function`
// reads beyond the DAG's region of that input, for the outputs' estimated
// regions. Dimensions whose bounds the input's constraints pin, and
// requirements that do not reduce to numbers, are not judged.
std::optional<InputOverRead> find_input_over_read(const Halide::Module &module, const std::string &function,
                                                  const PipelineDAG &dag);

}  // namespace ansor
