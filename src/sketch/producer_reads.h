#pragma once
// How a consumer reads one of its producers, in the consumer's variables:
// the argument lists of its reads and what they say about the producer's
// footprint in a tile of the consumer.
#include "dag/pipeline_dag.h"

#include <functional>
#include <string>
#include <vector>

namespace ansor {

// The argument lists with which `consumer`'s last stage reads `producer`,
// through the Funcs `inlined` says are inlined (up to four deep).
std::vector<std::vector<Halide::Expr>> reads_of(const PipelineDAG &dag, int consumer, const std::string &producer,
                                                const std::function<bool(int)> &inlined);

// A stage's space loops (of 2 or more iterations) split by whether some
// argument of `reads` uses them: the read point stays put along the shared
// ones (a per-pixel value read by every colour channel) and moves along the
// varying ones; each count is the product of those loops' extents.
struct ReadSpread {
    int64_t shared = 1;
    int64_t varying = 1;
};
ReadSpread read_spread(const StageInfo &stage, const std::vector<std::vector<Halide::Expr>> &reads);

// Whether `consumer` reads `producer` at a coarser scale than its own: some
// argument moves by 2 or more when a pure variable of the consumer moves by
// 1 (a pyramid's downsampling, `in(2x - 1) + in(2x) + ...`). A tile of the
// consumer then covers a producer region twice as wide, and a chain of such
// levels computed in one tile recomputes most of every finer level per tile.
bool reads_at_coarser_scale(const PipelineDAG &dag, int consumer, const std::string &producer,
                            const std::function<bool(int)> &inlined);

}  // namespace ansor
