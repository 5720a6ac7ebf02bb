#include "model/trained_model.h"

#include "features/program_features.h"
#include "util/errors.h"

#include <algorithm>
#include <stdexcept>

namespace ansor {

TrainingData::TrainingData() : programs(features::kCount) {}

void TrainingData::add(const std::string &group, const ProgramBatch &batch, const std::vector<double> &batch_ms) {
    if (batch.num_features != features::kCount || batch.programs() != batch_ms.size()) {
        throw std::invalid_argument("TrainingData::add: expected one time per program and " +
                                    std::to_string(features::kCount) + " features");
    }
    for (size_t p = 0; p < batch.programs(); p++) {
        programs.add_program(batch, p);
        groups.push_back(group);
        ms.push_back(batch_ms[p]);
    }
}

PretrainingSummary TrainingData::add_pretraining(const PretrainingSet &set, const std::vector<std::string> &own_keys,
                                                 const std::string &target, const std::string &path) {
    if (set.target != target) {
        throw UserError("the pretraining set " + path + " was measured on target " + set.target +
                        ", not on this one (" + target + ")");
    }
    PretrainingSummary summary;
    for (const PretrainingPipeline &p : set.pipelines) {
        if (std::find(own_keys.begin(), own_keys.end(), p.key) != own_keys.end()) continue;
        summary.programs += p.programs.programs();
        summary.pipelines++;
    }
    if (summary.programs == 0) {
        throw UserError("the pretraining set " + path + " holds no programs of " +
                        (own_keys.size() == 1 ? "other pipelines than this one"
                                              : "pipelines other than the tasks'"));
    }
    for (const PretrainingPipeline &p : set.pipelines) {
        // Labels are normalised per pipeline, so the key is the group.
        if (std::find(own_keys.begin(), own_keys.end(), p.key) == own_keys.end()) add(p.key, p.programs, p.ms);
    }
    return summary;
}

TrainedModel::TrainedModel(PackSumParams params, TrainingData data)
    : params_(params), trees_(features::kCount, params), data_(std::move(data)) {}

void TrainedModel::add_programs(const std::string &group, const ProgramBatch &batch, const std::vector<double> &ms) {
    data_.add(group, batch, ms);
}

void TrainedModel::set_prior(std::shared_ptr<const PackSumXGBoost> prior) {
    if (prior && prior->num_features() != features::kCount) {
        throw std::invalid_argument("TrainedModel::set_prior: the prior has " + std::to_string(prior->num_features()) +
                                    " features, this build " + std::to_string(features::kCount));
    }
    prior_ = std::move(prior);
}

void TrainedModel::retrain() {
    std::vector<float> base;
    if (prior_) {
        base = prior_->predict(data_.programs).statements;
        // Fine-tuning: small steps, and no more trees than programs, so that a
        // round's few measurements adjust the prior's ranking instead of
        // replacing it (on held-out matmul programs, 16 measurements with the
        // full-size booster took the prior's pairwise accuracy from 0.94 to
        // 0.88; with these limits it stays at 0.94; test_model_file.cpp).
        PackSumParams p = params_;
        p.eta = std::min(p.eta, kFineTuneEta);
        p.max_rounds = (int)std::min<size_t>((size_t)p.max_rounds, std::max<size_t>(10, data_.size()));
        trees_ = PackSumXGBoost(features::kCount, p);
    }
    trees_.train(data_.programs, normalized_throughputs(data_.groups, data_.ms), pipeline_groups(data_.groups), base);
    retrains_++;
}

PackSumPrediction TrainedModel::predict(const ProgramBatch &batch) const {
    if (!prior_) return trees_.predict(batch);
    PackSumPrediction out = prior_->predict(batch);
    if (!trees_.trained()) return out;
    PackSumPrediction own = trees_.predict(batch);
    for (size_t i = 0; i < out.programs.size(); i++) out.programs[i] += own.programs[i];
    for (size_t i = 0; i < out.statements.size(); i++) out.statements[i] += own.statements[i];
    return out;
}

PretrainingSummary TrainedModel::pretrain(const PretrainingSet &set, const std::vector<std::string> &own_keys,
                                          const std::string &target, const std::string &path) {
    PretrainingSummary summary = data_.add_pretraining(set, own_keys, target, path);
    retrain();
    return summary;
}

}  // namespace ansor
