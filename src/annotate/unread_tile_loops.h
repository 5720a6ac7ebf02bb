#pragma once
// A consumer's loop that the producers computed inside it do not read along
// (the channel loop of `out(x, y, c)` around a per-pixel `gain(x, y)`): every
// iteration of that loop outside the producers' compute location recomputes
// them for nothing. The pieces of such a loop's split that enclose the
// producers keep one iteration each, the whole loop inside, where the
// producers are computed once for all of it, as the expert schedules do.
#include "dag/pipeline_dag.h"
#include "state/loop_nest.h"
#include "state/steps.h"

namespace ansor {

// How many of `split`'s pieces, outermost first, enclose the compute
// location of producers of the split Func in `m` (the program's loop nest:
// producers placed, the consumer's loops in their final order), when none
// of those producers reads along the split loop; 0 when none is enclosed,
// when one of them reads along it, for a loop that is not a pure variable
// of the Func (a piece of an earlier split, a reduction), and where a
// producer's reads cannot be traced.
size_t pieces_repeating_producers(const LoopNest &m, const SplitStep &split);

// Whether the first `pieces` pieces of a split of a loop of `extent`
// iterations into `factors` (inner factors, SplitStep's) have one iteration.
bool single_iterations(const std::vector<int64_t> &factors, int64_t extent, size_t pieces);

// `factors` with the first `pieces` pieces at one iteration: the next piece
// takes what they held. Unchanged where that would not divide evenly.
std::vector<int64_t> with_single_iterations(const std::vector<int64_t> &factors, int64_t extent, size_t pieces);

}  // namespace ansor
