#pragma once
// The first search policy: sample complete programs from all sketches at
// random, measure `trials` distinct ones, keep the fastest.
#include "annotate/random_annotator.h"
#include "measure/measurer.h"
#include "sketch/sketch_generator.h"

#include <functional>
#include <optional>

namespace ansor {

struct TrialRecord {
    State state;
    MeasureResult result;
};

struct SearchOutcome {
    std::optional<State> best;
    MeasureResult best_result;
    std::vector<TrialRecord> trials;
    int failures = 0;
};

struct SearchProgress {
    int trials_done = 0, trials_total = 0, failures = 0;
    double best_ms = 0;  // 0 until something succeeded
    double elapsed_s = 0, left_s = 0;
};

class RandomSearch {
public:
    RandomSearch(const PipelineDAG &dag, std::vector<State> sketches, RandomAnnotator &annotator, Measurer *measurer,
                 uint64_t seed);
    // Draws one complete, replayable program (retrying failed draws).
    std::optional<State> sample();
    SearchOutcome run(int trials, const std::function<void(const SearchProgress &)> &progress = {});

private:
    const PipelineDAG &dag_;
    std::vector<State> sketches_;
    RandomAnnotator &annotator_;
    Measurer *measurer_;  // may be null when only sampling
    std::mt19937_64 rng_;
};

}  // namespace ansor
