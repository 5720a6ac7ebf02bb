#pragma once
// A trained cost model saved to a file: the model shipped with the plugin
// (trained on a corpus of other pipelines' measured programs) or any model a
// user trains with ansor_train_model. The file is one JSON header line,
//   {"format": "ansor-cost-model", "version": 1, "feature_set": V,
//    "objective": "pairwise", "target": T, "pipelines": N, "programs": M,
//    "sources": [...]}
// followed by the pack-sum trees in XGBoost's UBJSON model format, the
// whole gzip-compressed (a plain file reads as well). A model
// is only meaningful for the features it was trained on, so a file of
// another feature set (features::feature_set_version) is refused.
//
// A blend of models (model_blend.h) also lists its members in the header,
//   "members": [{"name": N, "trees": T, "weight": W}, ...]
// the trees of each following the previous member's, so that a search can
// ask every member's opinion as well as the blend's (search/consensus.h).
#include "model/pack_sum_xgboost.h"

#include <memory>
#include <string>
#include <vector>

namespace ansor {

// One model of a blend: its trees are `trees` consecutive ones of the file.
struct ModelMember {
    std::string name;  // e.g. the file it came from
    int trees = 0;
    double weight = 1;  // its leaves' scale in the blend
};

struct ModelFileInfo {
    std::string feature_set;  // feature_set_version() of the build that trained it
    std::string objective;    // "pairwise" or "square"
    std::string target;       // Halide target the training programs were measured on
    size_t pipelines = 0, programs = 0;
    std::vector<std::string> sources;  // what it was trained on, for people
    std::vector<ModelMember> members;  // empty unless the file is a blend
};

struct LoadedModel {
    std::shared_ptr<const PackSumXGBoost> trees;
    ModelFileInfo info;
    // Each of info.members as it was before blending, in that order.
    std::vector<std::shared_ptr<const PackSumXGBoost>> members;
};

// Writes `trees` (trained) with `info` (its feature_set is filled in here).
// Throws UserError naming `path` if it cannot be written, and
// std::invalid_argument if info.members do not add up to the trees.
void save_model_file(const std::string &path, const PackSumXGBoost &trees, ModelFileInfo info);

// Throws UserError naming `path` if the file is missing, not a model file,
// malformed (members included), or of another feature set (naming both
// versions).
LoadedModel load_model_file(const std::string &path);

// The model file installed beside the library that holds this code
// (libansor.so: `ansor_cost_model.gz` in its directory), or "" if there is
// none (e.g. in a tool that links the search statically).
std::string shipped_model_path();

// The file name the build and the install put beside libansor.so.
constexpr const char *kShippedModelFileName = "ansor_cost_model.gz";

}  // namespace ansor
