#include "model/pack_sum_xgboost.h"

#include "model/ranking_pairs.h"

#include <xgboost/c_api.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <memory>
#include <map>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace ansor {

namespace {

// Every XGBoost call goes through here: a nonzero return becomes an error
// that names the call and carries XGBoost's own message.
void check(int rc, const char *call) {
    if (rc == 0) return;
    // XGBoost appends a native stack trace to its message; keep the message.
    std::string message = XGBGetLastError();
    size_t trace = message.find("\nStack trace:");
    if (trace != std::string::npos) message.resize(trace);
    throw std::runtime_error(std::string("XGBoost ") + call + " failed: " + message);
}
#define XGB_CHECK(function, ...) check(function(__VA_ARGS__), #function)

// Owns a DMatrixHandle over a batch's rows (XGBoost copies the data).
class DMatrix {
public:
    DMatrix(const ProgramBatch &batch, int nthread) {
        XGB_CHECK(XGDMatrixCreateFromMat_omp, batch.rows.data(), batch.statements(), batch.num_features,
                  std::numeric_limits<float>::quiet_NaN(), &handle_, nthread);
    }
    ~DMatrix() { XGDMatrixFree(handle_); }
    // Per-row margins the trees add to (a prior model's statement scores).
    void set_base_margin(const std::vector<float> &margins) {
        if (margins.empty()) return;
        XGB_CHECK(XGDMatrixSetFloatInfo, handle_, "base_margin", margins.data(), (bst_ulong)margins.size());
    }
    DMatrix(const DMatrix &) = delete;
    DMatrix &operator=(const DMatrix &) = delete;
    DMatrixHandle get() const { return handle_; }

private:
    DMatrixHandle handle_ = nullptr;
};

// Owns a BoosterHandle until release().
using Booster = std::unique_ptr<void, int (*)(BoosterHandle)>;

// Per-row margins of the current trees (no base score: it is 0).
const float *row_margins(BoosterHandle booster, const DMatrix &m, bool training, size_t rows) {
    bst_ulong len = 0;
    const float *out = nullptr;
    // option_mask 1: raw margins. Prediction on a matrix the booster has
    // seen before is cached and only adds the new trees.
    XGB_CHECK(XGBoosterPredict, booster, m.get(), 1, 0, training ? 1 : 0, &len, &out);
    if (len != rows) throw std::runtime_error("XGBoost returned " + std::to_string(len) + " margins for " +
                                              std::to_string(rows) + " rows");
    return out;
}

// The per-statement values of the programs `idx` of `batch`, in order.
std::vector<float> pick_rows(const ProgramBatch &batch, const std::vector<float> &rows, const std::vector<size_t> &idx) {
    std::vector<float> out;
    if (rows.empty()) return out;
    for (size_t p : idx) out.insert(out.end(), rows.begin() + batch.begin[p], rows.begin() + batch.begin[p + 1]);
    return out;
}

// Pack sums: Σ of each program's row margins.
std::vector<double> program_sums(const ProgramBatch &batch, const float *margins) {
    std::vector<double> sums(batch.programs(), 0.0);
    for (size_t p = 0; p < batch.programs(); p++) {
        for (size_t r = batch.begin[p]; r < batch.begin[p + 1]; r++) sums[p] += margins[r];
    }
    return sums;
}

std::vector<float> program_weights(const std::vector<float> &labels, double min_weight) {
    std::vector<float> w(labels.size());
    for (size_t i = 0; i < labels.size(); i++) w[i] = (float)std::max<double>(labels[i], min_weight);
    return w;
}

// Mean weighted squared error of the pack sums: the early-stopping criterion.
double weighted_loss(const std::vector<double> &sums, const std::vector<float> &labels,
                     const std::vector<float> &weights) {
    double loss = 0, total = 0;
    for (size_t p = 0; p < sums.size(); p++) {
        double e = sums[p] - labels[p];
        loss += weights[p] * e * e;
        total += weights[p];
    }
    return total > 0 ? loss / total : 0;
}

// Tracks the stopping loss round by round.
struct EarlyStopping {
    int patience;            // rounds without enough improvement before stopping; 0: never stop
    double min_improvement;  // relative
    double best = std::numeric_limits<double>::infinity();
    int best_rounds = 0;

    // `loss` is that of the first `rounds` trees; true: stop now.
    bool stop(double loss, int rounds) {
        if (loss < best * (1 - min_improvement) || best_rounds == 0) {
            best = std::min(best, loss);
            best_rounds = rounds;
            return false;
        }
        return patience > 0 && rounds - best_rounds >= patience;
    }
};

template <typename T>
std::vector<T> pick(const std::vector<T> &v, const std::vector<size_t> &idx) {
    std::vector<T> out;
    out.reserve(idx.size());
    for (size_t i : idx) out.push_back(v[i]);
    return out;
}

// Mean of w·log(1 + exp(-(P_faster − P_slower))) per unit weight. With
// grad and hess given, also its gradient and diagonal Hessian per program,
// copied to each of the program's rows.
// `extra` (one per pair, or empty) multiplies the pairs' weights.
double pairwise_loss(const PairList &pairs, const std::vector<float> &extra, const std::vector<double> &sums,
                     const ProgramBatch &programs, std::vector<float> *grad = nullptr,
                     std::vector<float> *hess = nullptr) {
    std::vector<double> g(programs.programs(), 0.0), h(programs.programs(), 0.0);
    double loss = 0, total = 0;
    for (size_t i = 0; i < pairs.size(); i++) {
        OrderedPair p = pairs[i];
        if (!extra.empty()) p.weight *= extra[i];
        const double d = sums[p.faster] - sums[p.slower];
        const double wrong = 1 / (1 + std::exp(d));  // σ(−d): the probability the order is wrong
        loss += p.weight * (d > 30 ? std::exp(-d) : std::log1p(std::exp(-d)));
        total += p.weight;
        g[p.faster] -= p.weight * wrong;
        g[p.slower] += p.weight * wrong;
        const double curvature = p.weight * wrong * (1 - wrong);
        h[p.faster] += curvature;
        h[p.slower] += curvature;
    }
    for (size_t i = 0; grad && hess && i < programs.programs(); i++) {
        for (size_t r = programs.begin[i]; r < programs.begin[i + 1]; r++) {
            (*grad)[r] = (float)g[i];
            (*hess)[r] = (float)std::max(h[i], 1e-6);
        }
    }
    return total > 0 ? loss / total : 0.0;
}

}  // namespace

PackSumXGBoost::PackSumXGBoost(int num_features, PackSumParams params)
    : num_features_(num_features), params_(params) {
    if (num_features <= 0) throw std::invalid_argument("PackSumXGBoost: num_features must be positive");
}

PackSumXGBoost::~PackSumXGBoost() { reset(); }

PackSumXGBoost::PackSumXGBoost(PackSumXGBoost &&other) noexcept
    : num_features_(other.num_features_), params_(std::move(other.params_)), booster_(other.booster_) {
    other.booster_ = nullptr;
}

PackSumXGBoost &PackSumXGBoost::operator=(PackSumXGBoost &&other) noexcept {
    if (this != &other) {
        reset();
        num_features_ = other.num_features_;
        params_ = std::move(other.params_);
        booster_ = other.booster_;
        other.booster_ = nullptr;
    }
    return *this;
}

void PackSumXGBoost::reset() {
    if (booster_) XGBoosterFree(booster_);
    booster_ = nullptr;
}

void *PackSumXGBoost::new_booster(void *dtrain) const {
    BoosterHandle handle = nullptr;
    DMatrixHandle dmats[1] = {dtrain};
    XGB_CHECK(XGBoosterCreate, dmats, dtrain ? 1 : 0, &handle);
    Booster b(handle, XGBoosterFree);
    auto set = [&](const char *name, const std::string &value) {
        check(XGBoosterSetParam(b.get(), name, value.c_str()), ("XGBoosterSetParam(" + std::string(name) + ")").c_str());
    };
    auto num = [](double v) {
        std::ostringstream s;
        s.precision(17);
        s << v;
        return s.str();
    };
    set("booster", "gbtree");
    set("max_depth", std::to_string(params_.max_depth));
    set("gamma", num(params_.gamma));
    set("min_child_weight", num(params_.min_child_weight));
    set("eta", num(params_.eta));
    set("subsample", num(params_.subsample));
    set("colsample_bytree", num(params_.colsample_bytree));
    set("tree_method", params_.tree_method);
    set("max_bin", std::to_string(params_.max_bin));
    set("nthread", std::to_string(params_.nthread));
    set("seed", std::to_string(params_.seed));
    set("verbosity", "0");
    // A statement's score is its margin alone: XGBoost would otherwise add
    // base_score (0.5) to every row, i.e. 0.5 × statements to every sum.
    set("base_score", "0");
    return b.release();
}

int PackSumXGBoost::rounds() const {
    if (!booster_) return 0;
    int n = 0;
    XGB_CHECK(XGBoosterBoostedRounds, booster_, &n);
    return n;
}

void PackSumXGBoost::train(const ProgramBatch &data, const std::vector<float> &labels, const std::vector<int> &groups,
                           const std::vector<float> &base_margins) {
    if (data.num_features != num_features_) {
        throw std::invalid_argument("PackSumXGBoost::train: batch has " + std::to_string(data.num_features) +
                                    " features, the model " + std::to_string(num_features_));
    }
    if (!groups.empty() && groups.size() != data.programs()) {
        throw std::invalid_argument("PackSumXGBoost::train: " + std::to_string(groups.size()) + " groups for " +
                                    std::to_string(data.programs()) + " programs");
    }
    if (labels.size() != data.programs()) {
        throw std::invalid_argument("PackSumXGBoost::train: " + std::to_string(labels.size()) + " labels for " +
                                    std::to_string(data.programs()) + " programs");
    }
    if (!base_margins.empty() && base_margins.size() != data.statements()) {
        throw std::invalid_argument("PackSumXGBoost::train: " + std::to_string(base_margins.size()) +
                                    " base margins for " + std::to_string(data.statements()) + " statements");
    }
    reset();
    if (data.statements() == 0) return;

    // Hold out a validation set for early stopping if asked and there are enough programs.
    const size_t n = data.programs();
    const size_t n_valid = (size_t)std::floor(n * params_.validation_fraction);
    const bool validate = params_.early_stopping_rounds > 0 && n_valid > 0 &&
                          n_valid >= (size_t)params_.min_validation_programs && n_valid < n;
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    if (validate) {
        std::mt19937_64 rng(params_.seed);
        std::shuffle(order.begin(), order.end(), rng);
    }
    const size_t n_held = validate ? n_valid : 0;
    const std::vector<size_t> train_idx(order.begin() + n_held, order.end()), valid_idx(order.begin(), order.begin() + n_held);
    ProgramBatch held_in(num_features_);
    if (validate) held_in = data.subset(train_idx);
    const ProgramBatch &train_set = validate ? held_in : data;
    const std::vector<float> train_y = validate ? pick(labels, train_idx) : labels;
    const bool lambdarank = params_.objective == PackSumParams::Objective::LambdaRank;
    const bool pairwise = lambdarank || params_.objective == PackSumParams::Objective::Pairwise;
    const std::vector<int> all_one_group(n, 0);
    const std::vector<int> &group_of = groups.empty() ? all_one_group : groups;
    const std::vector<int> train_groups = pick(group_of, train_idx), valid_groups = pick(group_of, valid_idx);
    const PairList train_pairs = pairwise ? ordered_pairs(train_y, train_groups, params_.max_pairs,
                                                          params_.seed, params_.pair_weighting)
                                          : PairList{};
    const std::vector<float> train_w = program_weights(train_y, params_.min_weight);
    if (train_set.statements() == 0) return;
    const ProgramBatch valid_set = data.subset(valid_idx);
    const std::vector<float> valid_y = pick(labels, valid_idx);
    const std::vector<float> valid_w = program_weights(valid_y, params_.min_weight);
    const PairList valid_pairs = pairwise ? ordered_pairs(valid_y, valid_groups, params_.max_pairs, params_.seed + 1,
                                                           params_.pair_weighting) : PairList{};
    // LambdaRank's weights of a set's pairs under the current scores.
    auto swap_weights = [&](const std::vector<double> &sums, bool valid) {
        if (!lambdarank) return std::vector<float>{};
        return rank_swap_weights(valid ? valid_pairs : train_pairs, sums, valid ? valid_groups : train_groups);
    };
    // The objective's value on a set: the stopping criterion. `extra`: the
    // set's swap_weights under `sums`.
    auto set_loss = [&](const std::vector<double> &sums, bool valid, const std::vector<float> &extra) {
        if (pairwise) return pairwise_loss(valid ? valid_pairs : train_pairs, extra, sums, valid ? valid_set : train_set);
        return valid ? weighted_loss(sums, valid_y, valid_w) : weighted_loss(sums, train_y, train_w);
    };

    // Trained into a local booster so that an error leaves the model untrained.
    DMatrix dtrain(train_set, params_.nthread);
    dtrain.set_base_margin(validate ? pick_rows(data, base_margins, train_idx) : base_margins);
    Booster booster(new_booster(dtrain.get()), XGBoosterFree);
    std::unique_ptr<DMatrix> dvalid;
    if (validate && valid_set.statements() > 0) {
        dvalid = std::make_unique<DMatrix>(valid_set, params_.nthread);
        dvalid->set_base_margin(pick_rows(data, base_margins, valid_idx));
    }

    EarlyStopping stopping{params_.early_stopping_rounds, params_.min_improvement};
    const size_t rows = train_set.statements();
    std::vector<float> grad(rows), hess(rows);
    int done = 0;  // trees in the booster
    for (; done < params_.max_rounds; done++) {
        std::vector<double> sums = program_sums(train_set, row_margins(booster.get(), dtrain, true, rows));
        const std::vector<float> extra = swap_weights(sums, false);
        // The training loss of the first `done` trees.
        if (!dvalid && done > 0 && stopping.stop(set_loss(sums, false, extra), done)) break;
        if (pairwise) {
            pairwise_loss(train_pairs, extra, sums, train_set, &grad, &hess);
        } else {
            // Every row of a program shares its program's gradient: with
            // P = Σ_s f(s), ∂/∂f(s) of ½·w·(P − y)² is w·(P − y) for each s,
            // and the diagonal second derivative is w. (The ½ only rescales
            // the loss; it matches XGBoost's own squared error, so eta and
            // gamma keep their usual scale.)
            for (size_t p = 0; p < train_set.programs(); p++) {
                const float g = (float)(train_w[p] * (sums[p] - train_y[p]));
                for (size_t r = train_set.begin[p]; r < train_set.begin[p + 1]; r++) {
                    grad[r] = g;
                    hess[r] = train_w[p];
                }
            }
        }
        XGB_CHECK(XGBoosterBoostOneIter, booster.get(), dtrain.get(), grad.data(), hess.data(), rows);
        if (dvalid) {
            const float *m = row_margins(booster.get(), *dvalid, false, valid_set.statements());
            const std::vector<double> valid_sums = program_sums(valid_set, m);
            if (stopping.stop(set_loss(valid_sums, true, swap_weights(valid_sums, true)), done + 1)) {
                done++;
                break;
            }
        }
    }
    if (stopping.patience > 0 && stopping.best_rounds > 0 && stopping.best_rounds < done) {
        // Keep the trees up to the best round.
        BoosterHandle sliced = nullptr;
        XGB_CHECK(XGBoosterSlice, booster.get(), 0, stopping.best_rounds, 1, &sliced);
        booster.reset(sliced);
    }
    booster_ = booster.release();
}

std::vector<double> PackSumXGBoost::feature_gains() const {
    if (!booster_) return {};
    bst_ulong n = 0, dim = 0;
    const char **names = nullptr;
    const bst_ulong *shape = nullptr;
    const float *scores = nullptr;
    XGB_CHECK(XGBoosterFeatureScore, booster_, R"({"importance_type": "total_gain"})", &n, &names, &dim, &shape,
              &scores);
    // Without feature names XGBoost calls column i "f<i>".
    std::vector<double> gains(num_features_, 0.0);
    for (bst_ulong i = 0; i < n; i++) {
        int column = names[i][0] == 'f' ? std::atoi(names[i] + 1) : -1;
        if (column >= 0 && column < num_features_) gains[column] = scores[i];
    }
    return gains;
}

PackSumPrediction PackSumXGBoost::predict(const ProgramBatch &data) const {
    if (data.num_features != num_features_) {
        throw std::invalid_argument("PackSumXGBoost::predict: batch has " + std::to_string(data.num_features) +
                                    " features, the model " + std::to_string(num_features_));
    }
    PackSumPrediction out;
    out.programs.assign(data.programs(), 0.0);
    out.statements.assign(data.statements(), 0.f);
    if (!booster_ || data.statements() == 0) return out;
    DMatrix m(data, params_.nthread);
    const char *config = R"({"type": 1, "training": false, "iteration_begin": 0, "iteration_end": 0, "strict_shape": false})";
    const bst_ulong *shape = nullptr;
    bst_ulong dim = 0;
    const float *margins = nullptr;
    XGB_CHECK(XGBoosterPredictFromDMatrix, booster_, m.get(), config, &shape, &dim, &margins);
    if (dim != 1 || shape[0] != data.statements()) {
        throw std::runtime_error("XGBoost returned predictions of an unexpected shape");
    }
    out.statements.assign(margins, margins + data.statements());
    out.programs = program_sums(data, out.statements.data());
    return out;
}

std::string PackSumXGBoost::save() const {
    if (!booster_) return {};
    bst_ulong len = 0;
    const char *bytes = nullptr;
    XGB_CHECK(XGBoosterSaveModelToBuffer, booster_, R"({"format": "ubj"})", &len, &bytes);
    return std::string(bytes, len);
}

void PackSumXGBoost::load(const std::string &bytes) {
    if (bytes.empty()) {  // what save() gives for an untrained model
        reset();
        return;
    }
    Booster b(new_booster(nullptr), XGBoosterFree);
    XGB_CHECK(XGBoosterLoadModelFromBuffer, b.get(), bytes.data(), bytes.size());
    bst_ulong features = 0;
    XGB_CHECK(XGBoosterGetNumFeature, b.get(), &features);
    if ((int)features != num_features_) {
        throw std::runtime_error("XGBoost model has " + std::to_string(features) + " features, expected " +
                                 std::to_string(num_features_));
    }
    // The model file carries the trees and base_score, not the thread count.
    XGB_CHECK(XGBoosterSetParam, b.get(), "nthread", std::to_string(params_.nthread).c_str());
    reset();
    booster_ = b.release();
}

void PackSumXGBoost::save_file(const std::string &path) const {
    std::ofstream f(path, std::ios::binary);
    const std::string bytes = save();
    f.write(bytes.data(), (std::streamsize)bytes.size());
    if (!f) throw std::runtime_error("cannot write the cost model to " + path);
}

void PackSumXGBoost::load_file(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw std::runtime_error("cannot open the cost model file " + path);
    std::stringstream s;
    s << f.rdbuf();
    try {
        load(s.str());
    } catch (const std::exception &e) {
        throw std::runtime_error("cannot load the cost model from " + path + ": " + e.what());
    }
}

std::vector<float> normalized_throughputs(const std::vector<std::string> &pipelines, const std::vector<double> &ms) {
    if (pipelines.size() != ms.size()) throw std::invalid_argument("normalized_throughputs: sizes differ");
    auto ok = [](double t) { return std::isfinite(t) && t > 0; };
    std::unordered_map<std::string, double> best;
    for (size_t i = 0; i < ms.size(); i++) {
        if (!ok(ms[i])) continue;
        auto it = best.find(pipelines[i]);
        if (it == best.end() || ms[i] < it->second) best[pipelines[i]] = ms[i];
    }
    std::vector<float> y(ms.size(), 0.f);
    for (size_t i = 0; i < ms.size(); i++) {
        if (ok(ms[i])) y[i] = (float)(best[pipelines[i]] / ms[i]);
    }
    return y;
}

std::vector<int> pipeline_groups(const std::vector<std::string> &pipelines) {
    std::unordered_map<std::string, int> ids;
    std::vector<int> out;
    out.reserve(pipelines.size());
    for (const auto &p : pipelines) out.push_back(ids.emplace(p, (int)ids.size()).first->second);
    return out;
}

PackSumParams::Objective objective_from_name(const std::string &name) {
    if (name == "square") return PackSumParams::Objective::WeightedSquare;
    if (name == "pairwise") return PackSumParams::Objective::Pairwise;
    if (name == "lambdarank") return PackSumParams::Objective::LambdaRank;
    throw std::invalid_argument("unknown cost-model objective '" + name + "' (use square, pairwise or lambdarank)");
}

PackSumParams::PairWeighting pair_weighting_from_name(const std::string &name) {
    for (auto w : {PackSumParams::PairWeighting::Pairs, PackSumParams::PairWeighting::Programs,
                   PackSumParams::PairWeighting::Pipelines}) {
        if (name == pair_weighting_name(w)) return w;
    }
    throw std::invalid_argument("unknown pair weighting '" + name + "' (use pairs, programs or pipelines)");
}

const char *pair_weighting_name(PackSumParams::PairWeighting weighting) {
    switch (weighting) {
    case PackSumParams::PairWeighting::Pairs: return "pairs";
    case PackSumParams::PairWeighting::Programs: return "programs";
    case PackSumParams::PairWeighting::Pipelines: return "pipelines";
    }
    return "pairs";
}

}  // namespace ansor
