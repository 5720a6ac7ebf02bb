#pragma once
// The cost model named by HL_ANSOR_COST_MODEL, for one pipeline.
#include "model/cost_model.h"

#include <memory>

namespace ansor {

// "xgboost" or "random"; throws UserError for another name.
std::unique_ptr<CostModel> make_cost_model(const std::string &name, const PipelineDAG &dag, uint64_t seed);

}  // namespace ansor
