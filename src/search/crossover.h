#pragma once
// Node-based crossover (Ansor §5.1): a child takes every Func's whole group
// of steps from one of two parents, preferring the parent whose stages the
// cost model scores higher. Groups are replayed consumers first; a group
// that no longer fits what the child holds so far (a producer computed at a
// loop its consumer from the other parent does not have, a split of a loop
// whose extent changed) is taken from the other parent instead, and failing
// that, a Func with a free location is re-placed and re-annotated at
// random. A Func that cannot be repaired makes the crossover fail.
#include "annotate/random_annotator.h"

#include <map>
#include <optional>
#include <random>
#include <string>

namespace ansor {

enum class GeneOrigin { FirstParent, SecondParent, Repaired };

struct CrossoverChild {
    State state;
    // Per DAG Func (rfactor intermediates follow their origin).
    std::map<std::string, GeneOrigin> origin;
};

// prefer_first[f]: probability of taking Func f's steps from `first`
// (0.5 when the Func is missing from the map).
std::optional<CrossoverChild> crossover(const State &first, const State &second,
                                        const std::map<std::string, double> &prefer_first,
                                        RandomAnnotator &annotator, std::mt19937_64 &rng);

}  // namespace ansor
