#pragma once
// Evolutionary search (Ansor §5.1): a population of complete
// programs — fresh samples plus the best measured ones — evolves for a few
// generations under the cost model: parents are drawn with probability
// proportional to their predicted fitness, children come from node-based
// crossover or from mutation. The best predicted programs seen in any
// generation that have not been measured yet are returned.
#include "model/cost_model.h"
#include "search/crossover.h"
#include "search/mutations.h"
#include "search/program_sampler.h"

#include <random>
#include <set>
#include <string>
#include <vector>

namespace ansor {

struct EvolutionOptions {
    int population = 2048;
    int generations = 4;
    double mutation_probability = 0.85;  // a child not made by crossover is mutated with this probability
    double crossover_share = 0.2;        // share of each generation made by crossover (0: mutation only)
    // At most this share of the returned programs have one structure
    // (State::structure_key), while programs of other structures are on
    // offer; 1 returns the best predicted whatever their structure. Keeps the
    // measured batches from converging on one sketch the model happens to
    // favour before it has seen the others measured.
    double max_structure_share = 0.5;
    // The same cap while nothing of this pipeline has been measured: the
    // model then ranks from other pipelines' programs only, and a first
    // round spread over many structures is what its fine-tuning learns from.
    double first_round_structure_share = 0.125;
    // After the first round, this share of each round goes to sketches no
    // program has been measured from yet (see Selection::coverage_slots); the
    // first round gives them all of its evolved picks. 0: no coverage.
    double sketch_coverage_share = 0.25;
};

// How search() picks its programs from the best predicted ones.
struct Selection {
    // At most this share of the picks have one structure
    // (State::structure_key) while programs of other structures are on offer.
    double structure_share = 0.5;
    // Sketches (ProgramSampler indices) that no measured program came from.
    // Up to `coverage_slots` picks go to the best predicted program of each,
    // the best of them first, before the others are picked by prediction: a
    // sketch the model ranks low from other pipelines' data is still
    // measured once, and the model then learns what it is worth here.
    std::set<int> uncovered_sketches;
    int coverage_slots = 0;
};

struct EvolutionStats {
    int mutations_tried = 0, mutations_ok = 0;
    int crossovers_tried = 0, crossovers_ok = 0;
    double seconds = 0;
};

class EvolutionarySearch {
public:
    EvolutionarySearch(const ProgramSampler &sampler, RandomAnnotator &annotator, AnnotationOptions annotation,
                       CostModel &model, EvolutionOptions options);

    // Up to `count` distinct states, best predicted first, whose keys are not
    // in `exclude`, with no structure over max_structure_share of them unless
    // nothing else is left. `seeds` (e.g. the best measured programs) join
    // the first generation.
    std::vector<State> search(const std::vector<State> &seeds, int count, const std::set<std::string> &exclude,
                              std::mt19937_64 &rng);
    // The same, picked as `selection` says.
    std::vector<State> search(const std::vector<State> &seeds, int count, const std::set<std::string> &exclude,
                              std::mt19937_64 &rng, const Selection &selection);

    const EvolutionStats &stats() const { return stats_; }

private:
    std::vector<State> next_generation(const std::vector<State> &population,
                                       const std::vector<ProgramPrediction> &predictions, std::mt19937_64 &rng);

    const ProgramSampler &sampler_;
    RandomAnnotator &annotator_;
    Mutator mutator_;
    CostModel &model_;
    EvolutionOptions options_;
    EvolutionStats stats_;
};

}  // namespace ansor
