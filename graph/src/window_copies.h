// Concats and splits on the last axis without copies.
//
// A graph's tensors are row-major with the channels last (NHWC, or
// [rows, features]), so a part of a concat or split on the last axis is a
// strided window of the whole: every row of the part is a contiguous run
// of the whole's row. Where every kernel call that touches a part sees it
// through a view that maps into that window (the part's rows intact), the
// part needs no storage of its own: its producer writes into the whole
// (concat) or its readers read from the whole (split), and the graph_copy
// call that moved it goes. A part that is a graph output, a reshape's
// input, weight preparation, or read as a flat array (an elementwise
// kernel sees a tensor as one long row) keeps its copy.
#pragma once

#include "op_lowering.h"

namespace ansor_graph {

// Removes the copies it can from `lowered` (calls of `g`'s concat and split
// nodes) and records each elided part in lowered.windows.
void elide_channel_copies(const Graph &g, LoweredGraph &lowered);

}  // namespace ansor_graph
