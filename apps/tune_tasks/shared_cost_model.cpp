#include "shared_cost_model.h"

#include "model/xgboost_cost_model.h"

#include <stdexcept>

namespace ansor_tasks {

std::unique_ptr<ansor::CostModel> SharedModelPool::view(const std::string &group, const std::string &task_id,
                                                        const ansor::PipelineDAG &dag) {
    std::shared_ptr<ansor::TrainedModel> &model = groups_[group];
    if (!model) {
        ansor::PackSumParams p;
        p.seed = seed_;
        p.objective = objective_;
        model = std::make_shared<ansor::TrainedModel>(p, pretraining_);
        if (pretraining_.size() > 0) model->retrain();
    }
    return std::make_unique<ansor::XGBoostCostModel>(dag, model, task_id);
}

ansor::PretrainingSummary SharedModelPool::pretrain(const ansor::PretrainingSet &set,
                                                   const std::vector<std::string> &task_keys, const std::string &target,
                                                   const std::string &path) {
    if (!groups_.empty()) throw std::logic_error("SharedModelPool::pretrain after view()");
    return pretraining_.add_pretraining(set, task_keys, target, path);
}

}  // namespace ansor_tasks
