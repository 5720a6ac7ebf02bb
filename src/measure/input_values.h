#pragma once
// The values the measurement's random inputs take (docs/correctness.md):
// wide enough that a dropped, duplicated or misplaced term shows, narrow
// enough that no integer arithmetic overflows, since Halide treats 32-bit
// signed overflow as undefined and a schedule could change its result.
//
//   float types (float16, bfloat16, float32, float64): uniform in [-1, 1),
//     rounded to the type, so sums of signed terms cancel and a dropped term
//     is large against the result;
//   bool: 0 or 1; 8-bit integers: the type's whole range (what real data
//     spans, and what a pipeline reading 8-bit data is written for);
//   wider integers: [-R, R] (signed) or [0, R] (unsigned), R the type's
//     largest value or, if smaller, floor(sqrt(2^31 / (16 K))), with K the
//     largest reduction in the pipeline (1 if none): a sum of K products of
//     two inputs then stays below 2^27 in magnitude, 16 times inside int32.
#include <Halide.h>

#include <cstdint>

namespace ansor {

class PipelineDAG;

struct InputValueRange {
    double lo = 0, hi = 1;  // inclusive for integers; [lo, hi) for floats
};

InputValueRange input_value_range(const Halide::Type &t, int64_t largest_reduction);

// The most points any reduction of the pipeline covers (1 if none).
int64_t largest_reduction(const PipelineDAG &dag);

// Fills a dense buffer with reproducible random values in `range`. Each
// element's value depends on the seed and its coordinates alone, so buffers
// of different regions (a candidate that reads more than the reference)
// agree wherever they overlap.
void fill_random(Halide::Buffer<> &b, uint64_t seed, const InputValueRange &range);

}  // namespace ansor
