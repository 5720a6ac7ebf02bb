#include "model/make_cost_model.h"

#include "model/random_cost_model.h"
#include "model/xgboost_cost_model.h"
#include "util/errors.h"

namespace ansor {

std::unique_ptr<CostModel> make_cost_model(const std::string &name, const PipelineDAG &dag, uint64_t seed,
                                           const std::string &objective) {
    if (name == "random") return std::make_unique<RandomCostModel>(seed);
    if (name == "xgboost") {
        PackSumParams params;
        params.seed = seed;
        try {
            params.objective = objective_from_name(objective);
        } catch (const std::invalid_argument &e) {
            throw UserError(e.what());
        }
        return std::make_unique<XGBoostCostModel>(dag, params);
    }
    throw UserError("unknown cost model '" + name + "' (use xgboost or random)");
}

}  // namespace ansor
