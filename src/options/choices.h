#pragma once
// The options that choose between alternatives, as enums: parsed from their
// HL_ANSOR_* names once (options.cpp) and passed on as values, so no
// component compares option strings.
#include <string>

namespace ansor {

// HL_ANSOR_SEARCH. The three policies are settings of the same tuning loop
// (search/tuner.h): random measures fresh random programs only, model ranks
// fresh samples with the cost model, evolution evolves samples and the best
// measured programs under the model first.
enum class SearchPolicy { Random, Model, Evolution };

// HL_ANSOR_COST_MODEL: the learned model, or random scores (for ablations).
enum class CostModelKind { XGBoost, Random };

// HL_ANSOR_MODEL_OBJECTIVE: what the XGBoost model is trained to fit.
enum class ModelObjective { Pairwise, Square, LambdaRank };

// The option value that names each choice ("evolution", "xgboost", ...).
const char *choice_name(SearchPolicy p);
const char *choice_name(CostModelKind k);
const char *choice_name(ModelObjective o);

}  // namespace ansor
