#pragma once
// One cost model trained on the programs of several tasks:
// FamilySeer's per-family models, or Ansor's single model for every task
// (monolithic). A SharedModelPool maps each group to a TrainedModel
// (src/model/trained_model.h: the trees and the group's training data);
// every task gets an XGBoostCostModel view (src/model/xgboost_cost_model.h)
// that featurises with its own pipeline's extractor and predicts with, and
// trains, its group's TrainedModel. Labels are normalised per task (each
// task's fastest program gets 1), as the plugin's model does per pipeline.
#include "model/cost_model.h"
#include "model/trained_model.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ansor {

class SharedModelPool {
public:
    SharedModelPool(uint64_t seed, PackSumParams::Objective objective) : seed_(seed), objective_(objective) {}
    // A view of group `group`'s model for one task; `task_id` tells its
    // programs apart from the other tasks' in the labels. The view refers
    // to `dag` (which must outlive it) and shares the group's model.
    std::unique_ptr<CostModel> view(const std::string &group, const std::string &task_id,
                                           const PipelineDAG &dag);

    const std::map<std::string, std::shared_ptr<TrainedModel>> &groups() const { return groups_; }

    // Every group, now and later, also trains on `set`'s programs of
    // pipelines that are none of `task_keys` (the tasks being tuned: their
    // own programs come from the log), so its first task ranks from its first
    // round (HL_ANSOR_PRETRAIN; docs/cost_model.md, "Pretraining"). Throws
    // UserError naming `path` if the set was measured on another target or
    // holds nothing but the tasks' pipelines. Call before view().
    PretrainingSummary pretrain(const PretrainingSet &set, const std::vector<std::string> &task_keys,
                                       const std::string &target, const std::string &path);

private:
    uint64_t seed_;
    PackSumParams::Objective objective_;
    std::map<std::string, std::shared_ptr<TrainedModel>> groups_;
    // The pretraining programs every new group starts with (group = pipeline key).
    TrainingData pretraining_;
};

}  // namespace ansor
