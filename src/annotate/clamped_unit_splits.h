#pragma once
// A split by a factor of 1 (every inner piece one iteration wide) of a Func
// computed inside its consumer's loop and read through a clamp. Halide 14
// adds no guard to a split by 1, so its bounds inference takes the loop's
// start and its extent apart; across the consumer's tiles, whose region the
// clamp narrows near the border, their bounds add up to more than the
// region, and the pipeline asks for inputs wider than the ones it reads (a
// caller passing inputs of the pipeline's size gets an out-of-bounds error).
// A split by 2 or more is guarded (SplitStep::lower) and bounded right.
#include "state/loop_nest.h"
#include "state/state.h"

#include <vector>

namespace ansor {

// Per DAG node, whether some schedule could split it by 1 under a clamp:
// it reads an input unclamped and a consumer, or a consumer behind Funcs
// that could be inlined, reads it through a clamp.
std::vector<bool> nodes_read_under_clamp(const PipelineDAG &dag);

// Whether `program` splits by 1 a Func flagged in `under_clamp` (or one the
// program creates, such as a cache-write intermediate): only such a program
// needs its loop nest checked.
bool has_unit_split(const State &program, const std::vector<bool> &under_clamp);

// Throws InvalidState, naming the Func and loop, where `program` (replayed
// as `m`) splits a pure loop of such a Func by 1.
void check_clamped_unit_splits(const State &program, const LoopNest &m);

}  // namespace ansor
