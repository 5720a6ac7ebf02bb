#pragma once
// The cost model named by HL_ANSOR_COST_MODEL, for one pipeline.
#include "model/cost_model.h"

#include <memory>

namespace ansor {

// "xgboost" or "random"; throws UserError for another name. `objective`
// is the XGBoost model's training objective, "pairwise" or "square"
// (PackSumParams::objective; the plugin's default is Options::model_objective).
std::unique_ptr<CostModel> make_cost_model(const std::string &name, const PipelineDAG &dag, uint64_t seed,
                                           const std::string &objective);

}  // namespace ansor
