// The whole generator: enumerate, pair by fingerprint, re-check in floating
// point, prune (renaming, common subgraphs, weight preparation), verify with Z3, drop verified
// substitutions that are special cases of other verified ones.
#pragma once

#include "enumerate.h"
#include "substitution.h"
#include "verify.h"

#include <functional>
#include <string>
#include <vector>

namespace taso {

struct GenerateOptions {
    int max_ops = 0;  // operators per graph; 0: each family's own (EnumerationFamily::max_ops)
    VerifyOptions verify;
    std::vector<EnumerationFamily> families = default_families();
    std::function<void(const std::string &)> log;  // progress lines, when set
};

struct GenerateCounts {
    int64_t graphs = 0;           // connected graphs enumerated and fingerprinted
    int64_t candidates = 0;       // pairs with equal fingerprints
    int64_t recheck_failed = 0;   // unequal on random floating-point inputs
    int64_t pruned_renaming = 0;  // the same substitution up to input renaming
    int64_t pruned_common = 0;    // implied by a smaller one (common subgraph / output operator)
    int64_t pruned_weights = 0;   // neither side reads data: weight preparation, made once at load
    int64_t verified = 0;         // proved by Z3
    int64_t rejected = 0;         // not proved within the time limit
    int64_t pruned_instance = 0;  // verified, but a special case of another verified one
    int64_t kept() const { return verified - pruned_instance; }
    GenerateCounts &operator+=(const GenerateCounts &o);
};

struct GenerateResult {
    GenerateCounts total;
    std::vector<std::pair<std::string, GenerateCounts>> per_family;
    std::vector<int> per_family_max_ops;  // the depth each family was enumerated to
    std::vector<Substitution> kept;
    std::vector<Substitution> unproved;
    std::vector<Substitution> recheck_failed;  // equal fingerprints, unequal in floating point
};

GenerateResult generate_substitutions(const GenerateOptions &options);

// The substitution a candidate pair states (source: the graph with more
// operators), over only the inputs the two graphs use.
Substitution make_substitution(const InputFamily &family, const CandidatePair &pair);

}  // namespace taso
