#pragma once
// The cost model interface the search talks to. Scores are
// "higher is faster"; a program's score is the sum of its statements'
// scores (Ansor's pack-sum), and the per-statement scores are exposed so
// that crossover can prefer the parent whose stage scores better.
//
// The layers behind it: a CostModel is the pipeline side (it featurises one
// pipeline's States, e.g. XGBoostCostModel in xgboost_cost_model.h); the
// learned model it scores with and trains is a TrainedModel
// (trained_model.h), its own or shared with other pipelines' CostModels.
// make_cost_model (make_cost_model.h) builds one by name.
#include "measure/measure_result.h"
#include "state/state.h"
#include "records/pretraining_set.h"
#include "util/errors.h"

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
    // Trains the model on `set`'s programs of every pipeline but `own_keys`
    // (the pipelines being tuned, whose own programs come from their logs)
    // before its first measurement (HL_ANSOR_PRETRAIN; docs/cost_model.md,
    // "Pretraining"). Throws UserError naming `path` if the set was measured
    // on another target than `target` or holds only own_keys' programs, and
    // naming this model if it cannot learn (the default).
    virtual PretrainingSummary pretrain(const PretrainingSet &set, const std::vector<std::string> &own_keys,
                                        const std::string &target, const std::string &path) {
        (void)set, (void)own_keys, (void)target;
        throw UserError("the " + name() + " cost model cannot be pretrained on " + path +
                        " (HL_ANSOR_PRETRAIN needs HL_ANSOR_COST_MODEL=xgboost)");
    }
};

}  // namespace ansor
