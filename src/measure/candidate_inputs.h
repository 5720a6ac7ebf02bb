#pragma once
// The inputs a GPU candidate runs on. Normally the reference's files
// (reference_inputs.h). A schedule may read an input beyond what the
// reference read (a producer computed at root over rounded-up tiles); then,
// as PipelineRunner widens a CPU candidate's inputs, that input is
// regenerated over the union of both regions, with the same values where
// they overlap (values depend on coordinates alone), and the candidate runs
// on a copy of the inputs file that names it.
#include "dag/pipeline_dag.h"

#include <string>
#include <vector>

namespace ansor {

// Asks ansor_gpu_runner (`runner`, `library`, `function`) for the region
// each input is read over, and returns the inputs file to run with:
// `reference_spec` itself, or `dir`/inputs.json with widened inputs beside it.
std::string candidate_inputs(const PipelineDAG &dag, const std::string &reference_spec, const std::string &runner,
                             const std::string &library, const std::string &function, const std::string &dir);

}  // namespace ansor
