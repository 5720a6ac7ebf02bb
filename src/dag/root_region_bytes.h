#pragma once
// What a Func's whole required region holds, from the DAG alone (before any
// schedule): the sketch rules ask whether it is more than the allocator
// reuses between runs (util/memory_size.h).
#include "dag/pipeline_dag.h"

namespace ansor {

// Bytes of node's required region at root: its extents times the bytes of
// one value (all of a Tuple's elements); 0 where the region is unknown.
double root_region_bytes(const Node &node);

// Whether that region is larger than the allocator reuses: a buffer of it at
// root is mapped afresh, and all of its pages faulted in, on every run.
bool root_region_outgrows_reused_heap_blocks(const Node &node);

}  // namespace ansor
