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

void check_weight(double weight) {
    if (!std::isfinite(weight) || weight <= 0) {
        throw std::invalid_argument("model blend: weight " + std::to_string(weight) + " is not positive");
    }
}

// `booster` with `trees` (numbered afresh) in place of its own, as a model.
PackSumXGBoost with_trees(json booster, json trees, const PackSumXGBoost &like) {
    for (size_t i = 0; i < trees.size(); i++) trees[i]["id"] = (long long)i;
    json &model = gbtree_model(booster);
    model["gbtree_model_param"]["num_trees"] = std::to_string(trees.size());
    model["tree_info"] = json(std::vector<int>(trees.size(), 0));
    model["trees"] = std::move(trees);
    PackSumXGBoost out(like.num_features(), like.params());
    out.load(booster.dump());  // XGBoost reads a JSON document as well as its UBJSON
    return out;
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
        check_weight(weights[m]);
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
            trees.push_back(std::move(tree));
        }
    }
    return with_trees(std::move(blend), std::move(trees), *members[0]);
}

PackSumXGBoost blend_member(const PackSumXGBoost &blend, int begin, int end, double weight) {
    if (!blend.trained() || begin < 0 || begin >= end || end > blend.rounds()) {
        throw std::invalid_argument("blend_member: trees [" + std::to_string(begin) + ", " + std::to_string(end) +
                                    ") of a blend of " + std::to_string(blend.rounds()));
    }
    check_weight(weight);
    json booster = booster_json(blend);
    json &all = gbtree_model(booster).at("trees");
    json trees = json::array();
    for (int t = begin; t < end; t++) {
        scale_tree(all[t], 1 / weight);
        trees.push_back(std::move(all[t]));
    }
    return with_trees(std::move(booster), std::move(trees), blend);
}

}  // namespace ansor
