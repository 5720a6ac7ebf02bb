#pragma once
// Transposing reads in blocks. A stage vectorised along x that reads a Func
// or input as p(y, x) loads each vector from as many rows of p as it has
// lanes: a gather. Split y by the vector width, put that piece just outside
// the vector loop and unroll it, and each block of lanes x lanes reads whole
// rows of p that are still in L1 (iir_blur's expert transposes in 16x16
// blocks this way). Measured on iir_blur's two transposes (JIT, 2 threads,
// one channel at a time): 15.5 ms as gathers, 9.7 ms in blocks.
#include "dag/pipeline_dag.h"
#include "state/loop_nest.h"
#include "state/steps.h"

#include <optional>
#include <string>

namespace ansor {

struct TransposeBlock {
    std::string across;  // the loop to split by `lanes` (it indexes p's innermost dim)
    int lanes = 0;
};

// Where stage 0 of `func`, its innermost loop vectorised by `lanes`, reads
// something transposed: the loop to block, or nullopt. Only where the loop
// has an extent that `lanes` divides, and no producer is computed
// at it or at a loop between it and the vector loop (moving its piece
// inward would change what those producers are computed for).
std::optional<TransposeBlock> transposing_read(const PipelineDAG &dag, const LoopNest &m, const std::string &func,
                                               int lanes);

// The steps that block stage 0 of `func` as `block` says: the split, the
// reorder putting the inner piece right outside the vector loop, the unroll.
std::vector<StepPtr> transpose_block_steps(const LoopNest &m, const std::string &func, const TransposeBlock &block);

}  // namespace ansor
