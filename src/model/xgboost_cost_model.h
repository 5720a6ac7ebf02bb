#pragma once
// Ansor's learned cost model, pipeline side: featurises one
// pipeline's States (src/features) and scores and trains with a
// TrainedModel (trained_model.h: pack-sum trees and their training data).
// The TrainedModel is its own, or shared with the XGBoostCostModels of
// other pipelines (ansor_tune_tasks' family and monolithic models,
// src/network/shared_cost_model.h); this pipeline's programs are one
// group of its training data. Every update() adds the measured programs to
// the training data and retrains the trees from scratch on all of it.
//
// Labels are normalised per group (trained_model.h). Scores are sums of
// tree margins: with the squared-error objective roughly on that [0, 1]
// scale, with the pairwise objective (the search's default) only an order.
//
// Before the first training every replayable state scores 0 (so the search
// sees ties, not noise); a state that fails to replay scores -infinity.
#include "features/program_features.h"
#include "model/cost_model.h"
#include "model/trained_model.h"

#include <memory>
#include <string>
#include <vector>

namespace ansor {

class XGBoostCostModel : public CostModel {
public:
    // With a TrainedModel of its own. `pipeline_id` names this pipeline's
    // group in the training data (it matters only next to programs of other
    // groups, e.g. from pretraining).
    explicit XGBoostCostModel(const PipelineDAG &dag, PackSumParams params = {},
                              std::string pipeline_id = "this pipeline");
    // With `model`, which other pipelines' cost models may share; this
    // pipeline's programs form group `pipeline_id`. `dag` must outlive this.
    XGBoostCostModel(const PipelineDAG &dag, std::shared_ptr<TrainedModel> model, std::string pipeline_id);

    std::vector<double> predict(const std::vector<State> &states) override;
    std::vector<ProgramPrediction> predict_stages(const std::vector<State> &states) override;
    // Measured programs join the training data (a state that no longer
    // replays is skipped), then the trees are retrained from scratch.
    void update(const std::vector<State> &states, const std::vector<MeasureResult> &results) override;
    // "xgboost", or "xgboost-shared" when built on a shared TrainedModel.
    std::string name() const override { return name_; }
    // A shared model trained on another pipeline already ranks this one's programs.
    bool can_rank() const override { return model_->trained(); }
    PretrainingSummary pretrain(const PretrainingSet &set, const std::vector<std::string> &own_keys,
                                const std::string &target, const std::string &path) override;

    // The trained model (e.g. to add already-featurised programs, or to save its trees).
    TrainedModel &trained_model() { return *model_; }
    const TrainedModel &trained_model() const { return *model_; }

private:
    // Featurises the replayable states into `batch`; replayed[i] tells
    // whether state i made it, and stages (when given) receives, per
    // state, the (Func name, stage) of each of its statements.
    void featurise(const std::vector<State> &states, ProgramBatch &batch, std::vector<bool> &replayed,
                   std::vector<ProgramPrediction> *stages);

    FeatureExtractor extractor_;
    std::shared_ptr<TrainedModel> model_;
    std::string pipeline_id_;
    std::string name_;
    std::vector<StageFeatures> scratch_;
};

}  // namespace ansor
