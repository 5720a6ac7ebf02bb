#pragma once
// Gradient-boosted trees trained with Ansor's pack-sum objective,
// on libxgboost's C API. Knows nothing of pipelines or states: a program is
// a block of statement feature rows (features/program_batch.h) and a label;
// the trees score single statements and a program's score is the sum of its
// statements' scores. The training data around the trees is
// model/trained_model.h's.
//
//   loss = Σ_programs w · (Σ_{s ∈ program} f(s) − y)²,   w = max(y, min_weight)
//
// XGBoost only sees rows, so the objective is a custom one: each round the
// current per-row margins are summed per program, and every row of a
// program gets the gradient of its program's error (see train()).
#include "features/program_batch.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ansor {

struct PackSumParams {
    // Tree booster settings (those of TVM's auto_scheduler XGBModel).
    int max_depth = 10;
    double gamma = 0.001;
    double min_child_weight = 0;
    double eta = 0.2;
    // Shares of statement rows and of feature columns each tree is grown
    // on (XGBoost's subsample and colsample_bytree; 1: all, as TVM).
    double subsample = 1.0;
    double colsample_bytree = 1.0;
    // XGBoost's tree construction: histograms of max_bin bins per feature.
    std::string tree_method = "hist";
    int max_bin = 256;
    // Boosting rounds: at most max_rounds. Training stops once the stopping
    // loss has not fallen below (1 - min_improvement) × its best for
    // early_stopping_rounds rounds (0: always max_rounds), and the trees up
    // to its best round are kept. The stopping loss is the objective on the
    // training programs (it stops once new trees fit nothing more), or, when
    // validation_fraction > 0 and that share is at least
    // min_validation_programs programs, on that share held out at random
    // (drawn with `seed`; those programs are then not trained on). Holding
    // out is off by default: on sampled matmul / conv programs it ranked no
    // better at 1000 programs and worse at 200-500.
    int max_rounds = 300;
    int early_stopping_rounds = 10;
    double min_improvement = 1e-3;
    double validation_fraction = 0;
    int min_validation_programs = 20;
    // Floor of a program's weight in the loss. Ansor weighs a program by
    // its normalised throughput y, so the model spends its capacity on the
    // fast programs; with y alone a failed program (y = 0) would carry no
    // weight at all and its prediction would be left to chance. The floor
    // makes failures and very slow programs still pull their predictions
    // towards 0, at a tenth of the weight of the best program.
    double min_weight = 0.1;
    // The objective on the pack sums P. Ansor's: the weighted squared error
    // above. Pairwise: for every two programs of one group (pipeline) with
    // different labels, the logistic loss log(1 + exp(-(P_faster - P_slower)))
    // weighted by |y_faster - y_slower|, which only asks for the right order
    // (scores are then not throughputs, only ranks). LambdaRank: the same
    // pairs, each weighted again every round by how much swapping the two
    // programs would move them in the ranking's discounted order
    // |1/log2(1 + rank_a) - 1/log2(1 + rank_b)| (ranks by the current
    // scores within the group), so the trees spend themselves on the order
    // at the top of each pipeline's ranking, the programs the search
    // measures.
    enum class Objective { WeightedSquare, Pairwise, LambdaRank };
    Objective objective = Objective::WeightedSquare;
    // The pairwise objective compares every two programs of a group, which
    // grows as n²: above this many pairs in one training set, this many are
    // drawn at random (with `seed`) instead, so that resuming from a large
    // log keeps each retrain to seconds.
    size_t max_pairs = 2000000;
    // How the pairwise objective weighs groups against each other. A group
    // of n programs has n(n-1)/2 pairs, so with `Pairs` a pipeline measured
    // 400 times outweighs one measured 16 times 600-fold. `Programs` scales
    // each group's pairs so that its total weight grows with n (every
    // program counts the same, as in the squared error); `Pipelines` gives
    // every group the same total weight. The mean weight of a pair stays
    // the same, and a single group (one pipeline's own model) is unaffected.
    enum class PairWeighting { Pairs, Programs, Pipelines };
    PairWeighting pair_weighting = PairWeighting::Pairs;
    int nthread = 1;
    uint64_t seed = 0;
};

struct PackSumPrediction {
    std::vector<double> programs;   // one score per program
    std::vector<float> statements;  // one score per statement row, in batch order
};

class PackSumXGBoost {
public:
    explicit PackSumXGBoost(int num_features, PackSumParams params = {});
    ~PackSumXGBoost();
    PackSumXGBoost(PackSumXGBoost &&other) noexcept;
    PackSumXGBoost &operator=(PackSumXGBoost &&other) noexcept;
    PackSumXGBoost(const PackSumXGBoost &) = delete;
    PackSumXGBoost &operator=(const PackSumXGBoost &) = delete;

    // Trains a new booster from scratch (the old one is dropped).
    // labels[i] is program i's target, a normalised throughput in [0, 1].
    // Without programs the model goes back to untrained.
    // `groups[i]` names program i's pipeline: the pairwise objective only
    // compares programs of one group (empty: all programs form one group).
    // `base_margins` (one per statement row, or empty) are scores the new
    // trees add to, e.g. a prior model's: the trees then fit what the prior
    // gets wrong, and predict() returns only the trees' part.
    void train(const ProgramBatch &data, const std::vector<float> &labels, const std::vector<int> &groups = {},
               const std::vector<float> &base_margins = {});
    // Until the first train() or load(), predictions are all 0.
    bool trained() const { return booster_ != nullptr; }
    // Trees in the model (boosting rounds kept).
    int rounds() const;

    PackSumPrediction predict(const ProgramBatch &data) const;

    // The booster in XGBoost's UBJSON model format; load() accepts it (and
    // XGBoost's other model formats) and replaces the current model.
    std::string save() const;
    void load(const std::string &bytes);
    void save_file(const std::string &path) const;
    void load_file(const std::string &path);

    // Total gain of the splits on each feature over all trees (XGBoost's
    // "total_gain"), indexed by column; features never split on get 0.
    // Empty until trained or loaded.
    std::vector<double> feature_gains() const;

    int num_features() const { return num_features_; }
    const PackSumParams &params() const { return params_; }

private:
    // A new BoosterHandle with our parameters (the caller frees it).
    void *new_booster(void *dtrain) const;
    void reset();

    int num_features_;
    PackSumParams params_;
    void *booster_ = nullptr;  // BoosterHandle; null until trained or loaded
};

// Ansor's labels: per pipeline id, best time / time, so the fastest program
// of each pipeline gets 1; a failed program (ms not finite or ≤ 0) gets 0.
std::vector<float> normalized_throughputs(const std::vector<std::string> &pipelines, const std::vector<double> &ms);

// Per program, a small integer naming its pipeline id (for train()'s groups).
std::vector<int> pipeline_groups(const std::vector<std::string> &pipelines);

// "square" (Ansor's weighted squared error) or "pairwise"; throws
// std::invalid_argument naming the value otherwise.
PackSumParams::Objective objective_from_name(const std::string &name);

// "pairs", "programs" or "pipelines"; throws std::invalid_argument naming
// the value otherwise.
PackSumParams::PairWeighting pair_weighting_from_name(const std::string &name);
const char *pair_weighting_name(PackSumParams::PairWeighting weighting);

}  // namespace ansor
