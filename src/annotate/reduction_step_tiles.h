#pragma once
// A tile that a reduction walks whole at every step: where producers are
// computed inside a reduction loop (non-local means' weights per window
// offset, compute_at_reduction_step), each step of that loop computes them
// over the tile inside it and then reads and writes every accumulator of
// that tile. A tile whose accumulators and per-step values outgrow the
// caches streams them through memory once per step: the expert's and the
// tuned non-local means both step over 16,384 accumulators (a 128 x 32 or
// 256 x 16 tile, 4 sums), and the zero-shot pick of a model that had seen
// no such pipeline stepped over 196,608 (a 96 x 512 tile), several times slower.
#include "state/loop_nest.h"

#include <cstdint>

namespace ansor {

// Most points of a stage's loops inside a reduction loop that producers are
// computed at: 32,768 accumulators, 128 KiB of floats, leave a per-step
// tile and its producers' values within a core's L2 (512 KiB to 1 MiB on
// current x86 server cores).
constexpr int64_t kMaxPointsPerReductionStep = 32768;

// Throws InvalidState, naming the stage, where a Func is computed at a
// reduction loop with more than kMaxPointsPerReductionStep points of its
// consumer's stage inside that loop.
void check_reduction_step_tiles(const LoopNest &m);

}  // namespace ansor
