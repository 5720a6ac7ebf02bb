#pragma once
// Evolution's mutations (Ansor §5.1). Each takes a complete
// program and returns a changed, replayable one, or nothing when the chosen
// edit does not fit this state (the caller draws again).
#include "annotate/random_annotator.h"

#include <optional>
#include <random>

namespace ansor {

enum class MutationKind { TileSize, Parallel, AutoUnroll, ComputeLocation };
constexpr int kMutationKinds = 4;
const char *mutation_name(MutationKind k);

// Moves a divisor d of one level of a tiled loop to another level of the
// same split: the product of the levels still covers the extent.
std::optional<State> mutate_tile_size(const State &s, const AnnotationOptions &limits, std::mt19937_64 &rng);
// Fuses one more or one fewer leading loop into a parallel loop.
std::optional<State> mutate_parallel(const State &s, std::mt19937_64 &rng);
// Redraws the auto-unroll step of one stage from `steps` (0 removes it).
std::optional<State> mutate_auto_unroll(const State &s, const RandomAnnotator &annotator, std::mt19937_64 &rng);
// Moves one Func whose location was drawn at random (root, inline or inside
// its consumer) and redraws its annotations for the new place.
std::optional<State> mutate_compute_location(const State &s, RandomAnnotator &annotator, std::mt19937_64 &rng);

class Mutator {
public:
    Mutator(RandomAnnotator &annotator, AnnotationOptions options) : annotator_(annotator), options_(std::move(options)) {}
    // One mutation of a random kind; tries a few kinds before giving up.
    std::optional<State> mutate(const State &s, std::mt19937_64 &rng, MutationKind *kind_out = nullptr);
    std::optional<State> mutate(const State &s, MutationKind kind, std::mt19937_64 &rng);

private:
    RandomAnnotator &annotator_;
    AnnotationOptions options_;
};

}  // namespace ansor
