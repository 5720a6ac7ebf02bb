#pragma once
// Ansor's learned cost model for one pipeline (brief §3): statement
// features (src/features) scored by pack-sum gradient-boosted trees
// (pack_sum_xgboost.h). Every update() adds the measured programs to the
// training data and retrains the trees from scratch on all of it.
//
// Labels: each program's throughput normalised among the programs of the
// same pipeline (best time / its time, so 1 for the fastest); a failed
// measurement counts as throughput 0. Scores are sums of tree margins:
// with the squared-error objective roughly on that [0, 1] scale, with the
// pairwise objective (the search's default) only an order.
//
// Before the first training every replayable state scores 0 (so the search
// sees ties, not noise); a state that fails to replay scores -infinity.
#include "features/program_features.h"
#include "model/cost_model.h"
#include "model/pack_sum_xgboost.h"

#include <string>
#include <vector>

namespace ansor {

class XGBoostCostModel : public CostModel {
public:
    // `pipeline_id` names this pipeline's programs among the training data
    // (it matters only next to programs added with add_programs).
    explicit XGBoostCostModel(const PipelineDAG &dag, PackSumParams params = {},
                              std::string pipeline_id = "this pipeline");

    std::vector<double> predict(const std::vector<State> &states) override;
    std::vector<ProgramPrediction> predict_stages(const std::vector<State> &states) override;
    // Measured programs join the training data (a state that no longer
    // replays is skipped), then the trees are retrained from scratch.
    void update(const std::vector<State> &states, const std::vector<MeasureResult> &results) override;
    std::string name() const override { return "xgboost"; }
    bool can_rank() const override { return trees_.trained(); }

    // Already-featurised programs, e.g. measured on other pipelines or loaded
    // from a tuning log: ms[i] is program i's time, not finite or ≤ 0 if it
    // failed. Their labels are normalised among programs with the same
    // pipeline id. They are used from the next retrain() (or update()).
    void add_programs(const std::string &pipeline, const ProgramBatch &programs, const std::vector<double> &ms);
    void retrain();

    size_t training_programs() const { return ms_.size(); }
    // The trees, e.g. to save() them with the tuning data or load() them back.
    PackSumXGBoost &trees() { return trees_; }
    const PackSumXGBoost &trees() const { return trees_; }

private:
    // Featurises the replayable states into `batch`; replayed[i] tells
    // whether state i made it, and stages (when given) receives, per
    // state, the (Func name, stage) of each of its statements.
    void featurise(const std::vector<State> &states, ProgramBatch &batch, std::vector<bool> &replayed,
                   std::vector<ProgramPrediction> *stages);

    FeatureExtractor extractor_;
    PackSumXGBoost trees_;
    std::string pipeline_id_;
    // The training data: one entry per program.
    ProgramBatch data_;
    std::vector<std::string> pipelines_;
    std::vector<double> ms_;
    std::vector<StageFeatures> scratch_;
};

}  // namespace ansor
