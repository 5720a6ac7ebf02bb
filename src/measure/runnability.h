#pragma once
// Whether the measurement can run a pipeline, and the reference schedule it
// runs. Where it cannot (an extern stage whose symbol this process lacks, a
// scalar Param without a constant estimate, a buffer past Halide's 2^31-byte
// limit that the reference cannot avoid), the plugin schedules with the
// cost model alone and prints the reasons (docs/correctness.md).
#include "dag/pipeline_dag.h"

#include <string>
#include <vector>

namespace ansor {

// Halide's largest buffer without the large_buffers target feature.
constexpr int64_t kLargestBufferBytes = (int64_t(1) << 31) - 1;

// Why the pipeline cannot be measured, each naming the stage, Param or
// Func; empty when it can.
std::vector<std::string> measurement_obstacles(const PipelineDAG &dag);

// The Funcs the reference leaves inlined rather than at root: those whose
// root buffer would pass kLargestBufferBytes and that inlining computes
// exactly as well (one pure definition, not an output or extern stage).
// Inlining changes no value; the reference then needs no more memory than
// a candidate that inlines them.
std::vector<bool> reference_inlined(const PipelineDAG &dag);

// Bytes of node i's buffer over its region at root (every Tuple element).
int64_t root_buffer_bytes(const Node &n);

}  // namespace ansor
