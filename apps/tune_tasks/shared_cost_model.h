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

private:
    uint64_t seed_;
    ansor::PackSumParams::Objective objective_;
    std::map<std::string, std::unique_ptr<Group>> groups_;
};

}  // namespace ansor_tasks
