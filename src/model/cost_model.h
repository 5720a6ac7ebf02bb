#pragma once
// The cost model interface the search talks to (brief §3). Scores are
// "higher is faster"; a program's score is the sum of its statements'
// scores (Ansor's pack-sum), and the per-statement scores are exposed so
// that crossover can prefer the parent whose stage scores better.
#include "measure/measurer.h"

#include <string>
#include <vector>

namespace ansor {

struct ProgramPrediction {
    double score = 0;  // higher is faster
    // One score per statement, in the order of FeatureExtractor::extract:
    // (func name, stage) of every non-inlined stage of the state's model.
    std::vector<std::string> stage_funcs;
    std::vector<int> stage_indices;
    std::vector<double> stage_scores;
};

class CostModel {
public:
    virtual ~CostModel() = default;
    // Per-program scores; states that fail to replay score -infinity.
    virtual std::vector<double> predict(const std::vector<State> &states) = 0;
    // Per-program and per-statement scores.
    virtual std::vector<ProgramPrediction> predict_stages(const std::vector<State> &states) = 0;
    // Adds measured programs to the training data and retrains.
    virtual void update(const std::vector<State> &states, const std::vector<MeasureResult> &results) = 0;
    virtual std::string name() const = 0;
    // False while the model has nothing to rank by (an XGBoost model before
    // its first training scores every program 0). The search then measures
    // fresh random programs: evolving under uniform selection only blurs the
    // sampler's priors (docs/search.md, "The first round").
    virtual bool can_rank() const { return true; }
};

}  // namespace ansor
