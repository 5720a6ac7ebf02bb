#pragma once
// The reference's inputs written for another process (GpuMeasurer's
// ansor_runner), so that a candidate runs on exactly the values the
// reference ran on: one raw file per buffer input and inputs.json
// (runner_files.h) naming them, with the output regions the reference
// computed, in the order of the pipeline's outputs.
#include "dag/pipeline_dag.h"

#include "measure/runner_files.h"

#include <Halide.h>

#include <string>
#include <vector>

namespace ansor {

constexpr const char *kReferenceInputsFile = "inputs.json";

// `inputs`: the buffer inputs in dag.inputs() order (PipelineRunner::inputs()).
void write_reference_inputs(const std::string &dir, const PipelineDAG &dag, const std::vector<Halide::Buffer<>> &inputs);

// A dense Halide buffer from a raw file the runner wrote.
Halide::Buffer<> read_runner_buffer(const RunnerBuffer &b);

}  // namespace ansor
