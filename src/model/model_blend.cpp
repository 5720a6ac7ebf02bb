#include "model/model_blend.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

namespace ansor {

namespace {

using nlohmann::json;

// The booster as a JSON document (XGBoost saves UBJSON; nlohmann reads it).
json booster_json(const PackSumXGBoost &model) { return json::from_ubjson(model.save()); }

json &gbtree_model(json &booster) {
    json &gb = booster.at("learner").at("gradient_booster");
    if (gb.value("name", "") != "gbtree") {
        throw std::invalid_argument("blend_pack_sum_models: a member is not a tree booster (" + gb.value("name", "") + ")");
    }
    return gb.at("model");
}

// Multiplies a tree's leaf values (a leaf keeps its value in split_conditions)
// and its node weights by `weight`.
void scale_tree(json &tree, double weight) {
    const json &left = tree.at("left_children");
    json &conditions = tree.at("split_conditions");
    json &base_weights = tree.at("base_weights");
    for (size_t n = 0; n < left.size(); n++) {
        if (left[n].get<long long>() == -1) conditions[n] = conditions[n].get<double>() * weight;
        base_weights[n] = base_weights[n].get<double>() * weight;
    }
}

}  // namespace

PackSumXGBoost blend_pack_sum_models(const std::vector<const PackSumXGBoost *> &members,
                                     const std::vector<double> &weights) {
    if (members.empty() || members.size() != weights.size()) {
        throw std::invalid_argument("blend_pack_sum_models: one weight per member, at least one member");
    }
    for (size_t m = 0; m < members.size(); m++) {
        if (!members[m] || !members[m]->trained()) throw std::invalid_argument("blend_pack_sum_models: an untrained member");
        if (members[m]->num_features() != members[0]->num_features()) {
            throw std::invalid_argument("blend_pack_sum_models: members of different feature counts");
        }
        if (!std::isfinite(weights[m]) || weights[m] <= 0) {
            throw std::invalid_argument("blend_pack_sum_models: weight " + std::to_string(weights[m]) + " is not positive");
        }
    }
    json blend = booster_json(*members[0]);
    const json base_score = blend.at("learner").at("learner_model_param").at("base_score");
    json trees = json::array();
    for (size_t m = 0; m < members.size(); m++) {
        json member = m == 0 ? blend : booster_json(*members[m]);
        if (member.at("learner").at("learner_model_param").at("base_score") != base_score) {
            // A base score is added once per statement, not per tree, so it cannot be weighed.
            throw std::invalid_argument("blend_pack_sum_models: members with different base scores");
        }
        for (json &tree : gbtree_model(member).at("trees")) {
            scale_tree(tree, weights[m]);
            tree["id"] = (long long)trees.size();
            trees.push_back(std::move(tree));
        }
    }
    json &model = gbtree_model(blend);
    model["gbtree_model_param"]["num_trees"] = std::to_string(trees.size());
    model["tree_info"] = json(std::vector<int>(trees.size(), 0));
    model["trees"] = std::move(trees);

    PackSumXGBoost out(members[0]->num_features(), members[0]->params());
    out.load(blend.dump());  // XGBoost reads a JSON document as well as its UBJSON
    return out;
}

}  // namespace ansor
