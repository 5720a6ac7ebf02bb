#include "network/shared_cost_model.h"

#include "model/xgboost_cost_model.h"

#include <stdexcept>

namespace ansor {

std::unique_ptr<CostModel> SharedModelPool::view(const std::string &group, const std::string &task_id,
                                                        const PipelineDAG &dag) {
    std::shared_ptr<TrainedModel> &model = groups_[group];
    if (!model) {
        PackSumParams p;
        p.seed = seed_;
        p.objective = objective_;
        model = std::make_shared<TrainedModel>(p, pretraining_);
        if (pretraining_.size() > 0) model->retrain();
    }
    return std::make_unique<XGBoostCostModel>(dag, model, task_id);
}

PretrainingSummary SharedModelPool::pretrain(const PretrainingSet &set,
                                                   const std::vector<std::string> &task_keys, const std::string &target,
                                                   const std::string &path) {
    if (!groups_.empty()) throw std::logic_error("SharedModelPool::pretrain after view()");
    return pretraining_.add_pretraining(set, task_keys, target, path);
}

}  // namespace ansor
