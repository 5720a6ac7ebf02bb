#pragma once
// A split by a factor of 1 (every inner piece one iteration wide) of a Func
// computed inside its consumer's loop, where the Func's region varies from
// one consumer tile to the next. Halide 14 adds no guard to a split by 1, so
// its bounds inference bounds the loop's start and its extent apart, each
// over all of the consumer's tiles; their sum is more than the region, and
// the pipeline asks for inputs wider than the ones it reads (a caller
// passing inputs of the pipeline's size gets an out-of-bounds error).
// Two shapes make the region vary that way:
// - a clamp between the Func and its consumer (a boundary condition), which
//   narrows the region near the border;
// - a consumer stage whose tiles are guarded (an update's pure loops always
//   are) with two of its loops fused at or outside the Func's place: Halide
//   then bounds the guarded tile's start and extent through the fused loop's
//   division and remainder, loosely.
// A split by 2 or more is guarded (SplitStep::lower) and bounded right.
#include "state/loop_nest.h"
#include "state/state.h"

#include <vector>

namespace ansor {

// Per DAG node, whether some schedule could split it by 1 under a clamp:
// it reads an input unclamped and a consumer, or a consumer behind Funcs
// that could be inlined, reads it through a clamp.
std::vector<bool> nodes_read_under_clamp(const PipelineDAG &dag);

// Whether `program` splits by 1 a Func that could be bounded wrong: one
// flagged in `under_clamp`, one it computes at a consumer's loop, or one the
// program creates (such as a cache-write intermediate). Only such a program
// needs its loop nest checked.
bool has_unit_split(const State &program, const std::vector<bool> &under_clamp);

// Throws InvalidState, naming the Func and loop, where `program` (replayed
// as `m`) splits by 1 a pure loop of a Func whose region varies as above.
void check_unit_split_bounds(const State &program, const LoopNest &m);

}  // namespace ansor
