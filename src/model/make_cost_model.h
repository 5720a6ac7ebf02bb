#pragma once
// The cost model named by HL_ANSOR_COST_MODEL, for one pipeline.
#include "model/cost_model.h"
#include "model/pack_sum_xgboost.h"
#include "options/choices.h"

#include <memory>

namespace ansor {

// The pack-sum trees' training objective for HL_ANSOR_MODEL_OBJECTIVE.
PackSumParams::Objective pack_sum_objective(ModelObjective objective);

// `objective` is the XGBoost model's training objective and `prior` a
// trained model it starts from (TrainedModel::set_prior; null for none);
// the random model ignores both.
std::unique_ptr<CostModel> make_cost_model(CostModelKind kind, const PipelineDAG &dag, uint64_t seed,
                                           ModelObjective objective,
                                           std::shared_ptr<const PackSumXGBoost> prior = nullptr);

}  // namespace ansor
