#pragma once
// The pairwise objective's training pairs: every two programs of one group
// (pipeline) with different labels, ordered faster first, each weighted by
// |Δy| times its group's multiplier (PackSumParams::PairWeighting).
#include "model/pack_sum_xgboost.h"

#include <cstdint>
#include <vector>

namespace ansor {

// The pairwise objective's pairs: (faster, slower, weight |Δy|).
struct OrderedPair {
    uint32_t faster, slower;
    float weight;
};
using PairList = std::vector<OrderedPair>;

// The pairs of `y`'s programs within each group of `groups`, their weights
// scaled per group so that the groups' totals follow `weighting` (the
// multipliers average 1 over all pairs). With more than max_pairs pairs in
// all, max_pairs of them are drawn at random (with `seed`), each group as
// often as its share, their weights left at |Δy|.
PairList ordered_pairs(const std::vector<float> &y, const std::vector<int> &groups, size_t max_pairs, uint64_t seed,
                       PackSumParams::PairWeighting weighting);

}  // namespace ansor
