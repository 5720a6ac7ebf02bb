#pragma once
// One cost model trained on the programs of several tasks (brief §5):
// FamilySeer's per-family models, or Ansor's single model for every task
// (monolithic). A SharedModelPool owns the trees and training data of each
// group; every task gets a CostModel view that featurises with its own
// pipeline's extractor and predicts with, and trains, its group's trees.
// Labels are normalised per task (each task's fastest program gets 1), as
// XGBoostCostModel does per pipeline.
#include "features/program_features.h"
#include "model/cost_model.h"
#include "model/pack_sum_xgboost.h"
#include "records/pretraining_set.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ansor_tasks {

class SharedModelPool {
public:
    SharedModelPool(uint64_t seed, ansor::PackSumParams::Objective objective) : seed_(seed), objective_(objective) {}
    // A view of group `group`'s model for one task; `task_id` tells its
    // programs apart from the other tasks' in the labels. The view refers
    // to `dag` and to this pool: both must outlive it.
    std::unique_ptr<ansor::CostModel> view(const std::string &group, const std::string &task_id,
                                           const ansor::PipelineDAG &dag);

    struct Group {
        explicit Group(ansor::PackSumParams p) : trees(ansor::features::kCount, p), data(ansor::features::kCount) {}
        ansor::PackSumXGBoost trees;
        ansor::ProgramBatch data;
        std::vector<std::string> tasks;  // per program
        std::vector<double> ms;          // per program; +inf for a failure
        size_t retrains = 0;
    };
    const std::map<std::string, std::unique_ptr<Group>> &groups() const { return groups_; }

    // Every group, now and later, also trains on `set`'s programs of
    // pipelines that are none of `task_keys` (the tasks being tuned: their
    // own programs come from the log), so its first task ranks from its first
    // round (HL_ANSOR_PRETRAIN; docs/cost_model.md, "Pretraining"). Throws
    // UserError naming `path` if the set was measured on another target or
    // holds nothing but the tasks' pipelines. Call before view().
    ansor::PretrainingSummary pretrain(const ansor::PretrainingSet &set, const std::vector<std::string> &task_keys,
                                       const std::string &target, const std::string &path);

private:
    uint64_t seed_;
    ansor::PackSumParams::Objective objective_;
    std::map<std::string, std::unique_ptr<Group>> groups_;
    // The pretraining programs every new group starts with (task = pipeline key).
    ansor::ProgramBatch pretraining_{ansor::features::kCount};
    std::vector<std::string> pretraining_tasks_;
    std::vector<double> pretraining_ms_;
};

}  // namespace ansor_tasks
