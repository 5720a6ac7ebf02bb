#pragma once
// The trained half of Ansor's cost model: pack-sum trees
// (pack_sum_xgboost.h) and the featurised programs they are trained on,
// each program in a named group. It knows nothing of pipelines or states;
// featurising a pipeline's States is the pipeline side's job
// (xgboost_cost_model.h), and one TrainedModel can serve the pipeline sides
// of several pipelines: one per pipeline in the plugin, one per family or
// one for every task in ansor_tune_tasks (src/network/shared_cost_model.h).
//
// Labels: a group is one pipeline (or task), and each program's throughput
// is normalised among the programs of its group (best time / its time, so
// 1 for the group's fastest); a failed measurement counts as throughput 0.
// Every retrain() trains the trees from scratch on all the data.
#include "features/program_batch.h"
#include "model/pack_sum_xgboost.h"
#include "records/pretraining_set.h"

#include <string>
#include <vector>

#include <memory>

namespace ansor {

// Featurised programs with their times, each in a named group.
struct TrainingData {
    TrainingData();

    ProgramBatch programs;
    std::vector<std::string> groups;  // per program: its pipeline / task id
    std::vector<double> ms;           // per program; not finite or ≤ 0 if it failed

    size_t size() const { return ms.size(); }
    // Appends `batch`'s programs to group `group`; ms[i] is program i's time.
    // Throws std::invalid_argument unless there is one time per program and
    // the batch has this build's feature columns.
    void add(const std::string &group, const ProgramBatch &batch, const std::vector<double> &batch_ms);
    // Appends `set`'s programs of every pipeline but `own_keys` (the pipelines
    // being tuned: their own programs come from their logs), each pipeline key
    // its own group. Throws UserError naming `path` if the set was measured on
    // another target than `target`, or holds nothing but own_keys' programs
    // (then nothing is added).
    PretrainingSummary add_pretraining(const PretrainingSet &set, const std::vector<std::string> &own_keys,
                                       const std::string &target, const std::string &path);
};

class TrainedModel {
public:
    // Starts from `data` (e.g. a pretraining set's programs), untrained.
    explicit TrainedModel(PackSumParams params = {}, TrainingData data = {});

    // A model trained elsewhere (e.g. the one shipped with the plugin, on a
    // corpus of other pipelines) that this one starts from: it ranks before
    // any training, and every retrain fits new trees to what it gets wrong on
    // the training data (its statement scores are the trees' base margins),
    // so a few measurements fine-tune it rather than replace it.
    void set_prior(std::shared_ptr<const PackSumXGBoost> prior);
    const PackSumXGBoost *prior() const { return prior_.get(); }

    // Programs join the training data from the next retrain() (see TrainingData::add).
    void add_programs(const std::string &group, const ProgramBatch &batch, const std::vector<double> &ms);
    // Trains the trees from scratch on all the training data.
    void retrain();
    // Per-program and per-statement scores (the prior's plus the trees');
    // all 0 until trained or given a prior.
    PackSumPrediction predict(const ProgramBatch &batch) const;
    bool trained() const { return trees_.trained() || (prior_ && prior_->trained()); }

    // Adds `set`'s programs of other pipelines than `own_keys` and retrains
    // (TrainingData::add_pretraining tells what is taken and what is refused).
    PretrainingSummary pretrain(const PretrainingSet &set, const std::vector<std::string> &own_keys,
                                const std::string &target, const std::string &path);

    const TrainingData &data() const { return data_; }
    size_t training_programs() const { return data_.size(); }
    size_t retrains() const { return retrains_; }
    // The trees, e.g. to save() them with the tuning data or load() them back.
    PackSumXGBoost &trees() { return trees_; }
    const PackSumXGBoost &trees() const { return trees_; }

private:
    // The learning rate of trees fitted on top of a prior.
    static constexpr double kFineTuneEta = 0.05;

    PackSumParams params_;
    PackSumXGBoost trees_;
    std::shared_ptr<const PackSumXGBoost> prior_;
    TrainingData data_;
    size_t retrains_ = 0;
};

}  // namespace ansor
