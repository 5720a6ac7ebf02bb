#include "model/make_cost_model.h"

#include "model/random_cost_model.h"
#include "model/xgboost_cost_model.h"

namespace ansor {

PackSumParams::Objective pack_sum_objective(ModelObjective objective) {
    switch (objective) {
    case ModelObjective::Square: return PackSumParams::Objective::WeightedSquare;
    case ModelObjective::Pairwise: return PackSumParams::Objective::Pairwise;
    case ModelObjective::LambdaRank: return PackSumParams::Objective::LambdaRank;
    }
    return PackSumParams::Objective::Pairwise;
}

std::unique_ptr<CostModel> make_cost_model(CostModelKind kind, const PipelineDAG &dag, uint64_t seed,
                                           ModelObjective objective, std::shared_ptr<const PackSumXGBoost> prior) {
    if (kind == CostModelKind::Random) return std::make_unique<RandomCostModel>(seed);
    PackSumParams params;
    params.seed = seed;
    params.objective = pack_sum_objective(objective);
    auto model = std::make_unique<XGBoostCostModel>(dag, params);
    if (prior) model->trained_model().set_prior(std::move(prior));
    return model;
}

}  // namespace ansor
