// Pruning of redundant substitutions, as TASO does before verification.
//
//  - Input renaming: two substitutions that differ only by a permutation of
//    interchangeable inputs (same kind and shape, e.g. B and C) or by which
//    side is the source are one; canonical_key is equal for them.
//  - Common subgraph: when both graphs contain the same operator over the
//    same graph inputs, and the pair stays equal with that operator's
//    result replaced by an arbitrary tensor, the substitution is an
//    instance of a smaller one (the shared operator becomes an input).
//    Unlike TASO we check that replacement numerically: relu(relu(A)) =
//    relu(A) shares relu(A) but is not implied by anything smaller.
//  - Common output operator: both graphs end in one output computed by the
//    same operator; when each pair of operands that differ (P, Q) is
//    itself equal (numerically, with equal split trees), the substitution
//    is P = Q applied under that operator.
#pragma once

#include "enumerate.h"

#include <string>

namespace taso {

std::string canonical_key(const InputFamily &family, const CandidatePair &pair);

// symbol_sizes: concrete sizes for the numeric checks.
bool has_removable_common_subgraph(const InputFamily &family, const CandidatePair &pair,
                                   const std::vector<int64_t> &symbol_sizes);
bool has_common_output_operator(const InputFamily &family, const CandidatePair &pair,
                                const std::vector<int64_t> &symbol_sizes);

}  // namespace taso
