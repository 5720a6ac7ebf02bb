#include "model/make_cost_model.h"

#include "model/random_cost_model.h"
#include "util/errors.h"

namespace ansor {

std::unique_ptr<CostModel> make_cost_model(const std::string &name, const PipelineDAG &dag, uint64_t seed) {
    (void)dag;
    if (name == "random") return std::make_unique<RandomCostModel>(seed);
    // TODO(lead): the XGBoost model joins here once src/model/xgboost_cost_model lands.
    if (name == "xgboost") return std::make_unique<RandomCostModel>(seed);
    throw UserError("unknown cost model '" + name + "' (use xgboost or random)");
}

}  // namespace ansor
