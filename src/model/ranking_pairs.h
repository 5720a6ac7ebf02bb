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

// LambdaRank's extra weight of each pair (PackSumParams::Objective): with
// every group's programs ranked by `scores` (highest first, rank 1),
// |1/log2(1 + rank_faster) - 1/log2(1 + rank_slower)|, scaled so that the
// pairs of each group average 1 (the groups keep the totals ordered_pairs
// gave them).
std::vector<float> rank_swap_weights(const PairList &pairs, const std::vector<double> &scores,
                                     const std::vector<int> &groups);

}  // namespace ansor
