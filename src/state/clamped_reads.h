#pragma once
// Reads through boundary conditions: which Funcs may be computed over more
// than their region without reading outside an input buffer.
#include "dag/pipeline_dag.h"

#include <vector>

namespace ansor {

// Whether node `node`'s region reaches a pipeline input unclamped: it reads an
// input, or a Func that does, with an index no clamp bounds. Computing such a
// Func over more than its region reads outside the input buffer.
bool reads_input_unclamped(const PipelineDAG &dag, int node);

// Whether some consumer reads node `node` through a clamp (a boundary
// condition): near the clamped border, its region inside one of the
// consumer's tiles is narrower than the tile. A consumer in `inlined` (node
// flags) is looked through: its own consumers' clamps bound its calls.
bool read_through_clamp(const PipelineDAG &dag, int node, const std::vector<bool> &inlined);

// Both: node `node` is read through a clamp, so its region inside a
// consumer's tile can be narrower than the tile, and it reads an input
// unclamped, so computing it past that region reads past the input.
bool overcompute_reads_past_input(const PipelineDAG &dag, int node, const std::vector<bool> &inlined);

}  // namespace ansor
