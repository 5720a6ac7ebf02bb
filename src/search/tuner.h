#pragma once
// The tuning loop for one pipeline: in rounds, pick candidates —
// the best the cost model predicts after evolution, plus an ε share of fresh
// random programs — measure them, hand each measurement to the caller (the
// tuning log), retrain the model, and keep the fastest program.
//
// The three search policies are settings of the same loop:
//   random:    every candidate is a fresh random program (ε = 1);
//   model:     the model ranks a population of fresh samples (no evolution);
//   evolution: the population (samples + best measured) evolves first.
#include "measure/measurer.h"
#include "model/cost_model.h"
#include "options/choices.h"
#include "search/evolutionary_search.h"

#include <functional>
#include <optional>
#include <string>

namespace ansor {

struct TunerOptions {
    SearchPolicy policy = SearchPolicy::Evolution;
    int trials = 64;               // programs to measure
    int measures_per_round = 16;   // programs measured between retrainings
    double epsilon = 0.05;         // share of random programs in each round
    double seed_share = 0.2;       // at most this share of the population are best measured programs
    double suggestion_share = 0.5; // at most this share of a round goes to suggest()ed programs
    EvolutionOptions evolution;
    uint64_t seed = 0;
};

struct TrialRecord {
    State state;
    MeasureResult result;
};

struct TuningProgress {
    int trials_done = 0, trials_total = 0, failures = 0, round = 0;
    double best_ms = 0;  // 0 until something succeeded
    double elapsed_s = 0, left_s = 0;
};

struct TuningOutcome {
    std::optional<State> best;  // over this run's trials and the history
    MeasureResult best_result;
    std::vector<TrialRecord> trials;  // this run's, in measurement order
    int failures = 0;
    EvolutionStats evolution;
};

class Tuner {
public:
    Tuner(const ProgramSampler &sampler, RandomAnnotator &annotator, AnnotationOptions annotation, Measurer &measurer,
          CostModel &model, TunerOptions options);

    // Earlier measurements (a resumed log): they train the model, seed the
    // population, are never measured again and count for the best program,
    // but not against this run's trial budget.
    void add_history(const std::vector<TrialRecord> &history);

    // Programs proposed from outside the search, e.g. FamilySeer's foresee
    // tuning (the best programs of a similar pipeline, rebuilt for this one).
    // The next round first measures those the cost model ranks highest, up
    // to options.suggestion_share of the round (at least one); the others
    // are dropped, and so are programs already measured.
    void suggest(std::vector<State> states);

    std::function<void(const TrialRecord &)> on_measured;
    std::function<void(const TuningProgress &)> on_progress;

    // Measures options.trials programs.
    TuningOutcome run();
    // Measures `trials` more programs, continuing where the last call
    // stopped (same model, rng and history); benchmarks interleave runs so.
    TuningOutcome run_more(int trials);
    // Every measurement so far, and the best program.
    const TuningOutcome &outcome() const { return outcome_; }

private:
    std::vector<State> pick_candidates(int count, std::mt19937_64 &rng);
    void consider(const TrialRecord &t);

    const ProgramSampler &sampler_;
    Measurer &measurer_;
    CostModel &model_;
    TunerOptions options_;
    EvolutionarySearch evolution_;
    std::set<std::string> measured_;          // keys of every measured program
    std::set<int> measured_sketches_;         // sketches this run has measured a program of
    bool resumed_ = false;                    // history was added (its programs' sketches are unknown)
    std::vector<State> suggested_;            // suggest()ed, not yet picked
    std::vector<TrialRecord> successes_;      // history and this run, ok results only
    TuningOutcome outcome_;
    std::mt19937_64 rng_;
    int rounds_ = 0;
    double seconds_ = 0;  // spent in earlier run_more calls
};

// Policy settings: random -> epsilon 1; model -> no generations, no seeds.
TunerOptions with_policy(TunerOptions o, SearchPolicy p);

}  // namespace ansor
