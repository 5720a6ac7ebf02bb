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
    : trees_(features::kCount, params), data_(std::move(data)) {}

void TrainedModel::add_programs(const std::string &group, const ProgramBatch &batch, const std::vector<double> &ms) {
    data_.add(group, batch, ms);
}

void TrainedModel::retrain() {
    trees_.train(data_.programs, normalized_throughputs(data_.groups, data_.ms), pipeline_groups(data_.groups));
    retrains_++;
}

PretrainingSummary TrainedModel::pretrain(const PretrainingSet &set, const std::vector<std::string> &own_keys,
                                          const std::string &target, const std::string &path) {
    PretrainingSummary summary = data_.add_pretraining(set, own_keys, target, path);
    retrain();
    return summary;
}

}  // namespace ansor
