// Pruning of redundant substitutions, as TASO does before verification.
//
//  - Input renaming: two substitutions that differ only by the names of
//    their inputs (inputs of one kind and rank may trade places), by the
//    names of shape symbols (B [k,n] alone is A [m,k] alone), or by which
//    side is the source are one; canonical_key is equal for them.
//  - Identical output: with several outputs, one computed the same way on
//    both sides; the rest is a smaller substitution.
//  - Instances: a verified substitution that is another verified one with
//    two same-shaped inputs merged (ewadd(B,B) for ewadd(B,C)) is dropped
//    after verification.
//  - Common subgraph: when both graphs contain the same operator over the
//    same graph inputs, and the pair stays equal with that operator's
//    result replaced by an arbitrary tensor, the substitution is an
//    instance of a smaller one (the shared operator becomes an input).
//    Unlike TASO we check that replacement numerically: relu(relu(A)) =
//    relu(A) shares relu(A) but is not implied by anything smaller.
//  - Weight preparation: neither graph has an operator that reads data
//    (a tensor input), so both compute weights only (concatenated or
//    enlarged kernels): a graph optimiser makes those once when it loads
//    the weights, and rewriting them changes no run's cost.
//  - Common output operator: both graphs end in one output computed by the
//    same operator; when each pair of operands that differ (P, Q) is
//    itself equal (numerically, with equal split trees), the substitution
//    is P = Q applied under that operator.
#pragma once

#include "enumerate.h"

#include <string>

namespace taso {

std::string canonical_key(const InputFamily &family, const CandidatePair &pair);

// The canonical keys of the pair with some of its inputs merged (inputs of
// one kind and shape made the same tensor): a substitution whose key is
// among another's instance keys is a special case of it, since a pattern
// matcher may bind two pattern inputs to one tensor.
std::vector<std::string> instance_keys(const InputFamily &family, const CandidatePair &pair);

// symbol_sizes: concrete sizes for the numeric checks.
bool has_removable_common_subgraph(const InputFamily &family, const CandidatePair &pair,
                                   const std::vector<int64_t> &symbol_sizes);
bool has_common_output_operator(const InputFamily &family, const CandidatePair &pair,
                                const std::vector<int64_t> &symbol_sizes);
bool has_identical_output(const InputFamily &family, const CandidatePair &pair);
bool reads_weights_only(const InputFamily &family, const CandidatePair &pair);

}  // namespace taso
