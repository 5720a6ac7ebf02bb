#pragma once
// What a GPU candidate reads of the pipeline's inputs. A schedule may read an
// input beyond the region the algorithm needs for the output's sizes (Halide
// over-approximates the region of a producer computed in fused or guarded GPU
// loops). The library it builds then fails on inputs of the pipeline's sizes
// ("Input buffer ... is accessed at ..., which is beyond the max"), as a
// user's call would: such a candidate is rejected before it runs, with the
// input and both regions named, instead of being run on widened inputs.
#include "dag/pipeline_dag.h"

#include <string>

namespace ansor {

// Asks ansor_runner (`runner`, `library`, `function`) for the region each
// input is read over (a bounds query on the reference's inputs file
// `reference_spec`); throws GpuProgramRejected naming the first input read
// beyond the file's region in a dimension the pipeline does not pin.
void require_reads_within_reference(const PipelineDAG &dag, const std::string &reference_spec,
                                    const std::string &runner, const std::string &library,
                                    const std::string &function);

}  // namespace ansor
