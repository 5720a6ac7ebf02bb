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
#include "model/pack_sum_xgboost.h"

#include <memory>
#include <string>
#include <vector>

namespace ansor {

struct ModelFileInfo {
    std::string feature_set;  // feature_set_version() of the build that trained it
    std::string objective;    // "pairwise" or "square"
    std::string target;       // Halide target the training programs were measured on
    size_t pipelines = 0, programs = 0;
    std::vector<std::string> sources;  // what it was trained on, for people
};

struct LoadedModel {
    std::shared_ptr<const PackSumXGBoost> trees;
    ModelFileInfo info;
};

// Writes `trees` (trained) with `info` (its feature_set is filled in here).
// Throws UserError naming `path` if it cannot be written.
void save_model_file(const std::string &path, const PackSumXGBoost &trees, ModelFileInfo info);

// Throws UserError naming `path` if the file is missing, not a model file,
// malformed, or of another feature set (naming both versions).
LoadedModel load_model_file(const std::string &path);

// The model file installed beside the library that holds this code
// (libansor.so: `ansor_cost_model.gz` in its directory), or "" if there is
// none (e.g. in a tool that links the search statically).
std::string shipped_model_path();

// The judge model installed beside libansor.so (`ansor_judge_model.gz`),
// which chooses the zero-shot program among the shipped model's finalists
// (docs/cost_model.md, "The judge"), or "" if there is none.
std::string shipped_judge_model_path();

// The file names the build and the install put beside libansor.so.
constexpr const char *kShippedModelFileName = "ansor_cost_model.gz";
constexpr const char *kShippedJudgeModelFileName = "ansor_judge_model.gz";

}  // namespace ansor
