#pragma once
// Draws complete programs: a random sketch, annotated at random (Ansor §4.2).
#include "annotate/random_annotator.h"

#include <optional>
#include <random>

namespace ansor {

class ProgramSampler {
public:
    ProgramSampler(std::vector<State> sketches, RandomAnnotator &annotator)
        : sketches_(std::move(sketches)), annotator_(annotator) {}
    // A replayable program, or nothing if 64 draws in a row failed.
    std::optional<State> sample(std::mt19937_64 &rng) const;
    const std::vector<State> &sketches() const { return sketches_; }

private:
    std::vector<State> sketches_;
    RandomAnnotator &annotator_;
};

}  // namespace ansor
