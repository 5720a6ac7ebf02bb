#pragma once
// The buffers a measurement binds: inputs and outputs shaped by the DAG's
// regions (what the pipeline reads, as bounds inference over the output
// estimates gives it) and laid out as the buffers' constraints pin them
// (strides, alignment), and larger stand-ins for Buffers compiled into the
// pipeline that are smaller than what the measurement reads.
#include "dag/pipeline_dag.h"

#include <Halide.h>

#include <map>
#include <vector>

namespace ansor {

// A buffer of `type` over `region`; with pinned strides (set_stride) it has
// exactly those, the other dimensions packed outside them. Host pointers
// are 128-byte aligned, which meets any set_host_alignment up to 128.
Halide::Buffer<> make_measurement_buffer(const Halide::Type &type, const std::vector<DimRange> &region,
                                         const BufferConstraints &constraints = {});

// Whether the buffer's elements are contiguous in index order (no gaps,
// innermost dimension first), as the reference comparison reads them.
bool is_dense(const Halide::Buffer<> &b);

// For every embedded Buffer that does not cover what the pipeline reads: a
// stand-in over the read region holding the original's data where it has
// any and reproducible random values elsewhere.
std::map<std::string, Halide::Buffer<>> embedded_stand_ins(const PipelineDAG &dag);

// Points the pipeline's calls to embedded Buffers at their stand-ins, in
// the Funcs of `env` (a deep copy; the user's Funcs are never touched).
void use_stand_ins(const std::map<std::string, Halide::Internal::Function> &env,
                   const std::map<std::string, Halide::Buffer<>> &stand_ins);

}  // namespace ansor
