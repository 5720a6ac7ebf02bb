#pragma once
// Trained pack-sum models blended into one: a booster that holds every
// member's trees, each member's leaf values scaled by its weight, so a
// statement's score is the weighted sum of the members' scores, and so is a
// program's. The blend is an ordinary booster: it saves to a model file,
// starts searches and takes fine-tuning trees on top like any trained model
// (model/trained_model.h), at the prediction cost of all members' trees.
//
// Why blend: a search that evolves programs under one model drifts to the
// programs that model overrates, and zero-shot applies the top of that
// population; a program has to fool every member of a blend to win it.
// Members' scores are not calibrated (pairwise scores only order programs),
// so the weights are what put them on one scale (docs/cost_model.md).
#include "model/pack_sum_xgboost.h"

#include <vector>

namespace ansor {

// Throws std::invalid_argument unless every member is trained, has this
// build's feature count and a finite positive weight, and the members agree
// on the booster's base score.
PackSumXGBoost blend_pack_sum_models(const std::vector<const PackSumXGBoost *> &members,
                                     const std::vector<double> &weights);

}  // namespace ansor
