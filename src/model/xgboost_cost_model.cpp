#include "model/xgboost_cost_model.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace ansor {

XGBoostCostModel::XGBoostCostModel(const PipelineDAG &dag, PackSumParams params, std::string pipeline_id)
    : extractor_(dag), model_(std::make_shared<TrainedModel>(params)), pipeline_id_(std::move(pipeline_id)),
      name_("xgboost") {}

XGBoostCostModel::XGBoostCostModel(const PipelineDAG &dag, std::shared_ptr<TrainedModel> model,
                                   std::string pipeline_id)
    : extractor_(dag), model_(std::move(model)), pipeline_id_(std::move(pipeline_id)), name_("xgboost-shared") {
    if (!model_) throw std::invalid_argument("XGBoostCostModel: no TrainedModel");
}

void XGBoostCostModel::featurise(const std::vector<State> &states, ProgramBatch &batch, std::vector<bool> &replayed,
                                 std::vector<ProgramPrediction> *stages) {
    replayed.assign(states.size(), false);
    if (stages) stages->assign(states.size(), {});
    for (size_t i = 0; i < states.size(); i++) {
        LoopNest model(extractor_.dag());
        try {
            model = states[i].replay();
        } catch (const InvalidState &) {
            continue;
        }
        extractor_.extract(model, scratch_);
        batch.begin.push_back(batch.begin.back() + scratch_.size());
        for (const StageFeatures &f : scratch_) batch.rows.insert(batch.rows.end(), f.values.begin(), f.values.end());
        replayed[i] = true;
        if (!stages) continue;
        ProgramPrediction &p = (*stages)[i];
        for (const StageFeatures &f : scratch_) {
            p.stage_funcs.push_back(model.funcs()[f.func].name);
            p.stage_indices.push_back(f.stage);
        }
    }
}

std::vector<ProgramPrediction> XGBoostCostModel::predict_stages(const std::vector<State> &states) {
    ProgramBatch batch(features::kCount);
    std::vector<bool> replayed;
    std::vector<ProgramPrediction> out;
    featurise(states, batch, replayed, &out);
    PackSumPrediction scores = model_->predict(batch);
    size_t program = 0;
    for (size_t i = 0; i < states.size(); i++) {
        if (!replayed[i]) {
            out[i].score = -std::numeric_limits<double>::infinity();
            continue;
        }
        out[i].score = scores.programs[program];
        for (size_t r = batch.begin[program]; r < batch.begin[program + 1]; r++) {
            out[i].stage_scores.push_back(scores.statements[r]);
        }
        program++;
    }
    return out;
}

std::vector<double> XGBoostCostModel::predict(const std::vector<State> &states) {
    ProgramBatch batch(features::kCount);
    std::vector<bool> replayed;
    featurise(states, batch, replayed, nullptr);
    PackSumPrediction scores = model_->predict(batch);
    std::vector<double> out(states.size(), -std::numeric_limits<double>::infinity());
    size_t program = 0;
    for (size_t i = 0; i < states.size(); i++) {
        if (replayed[i]) out[i] = scores.programs[program++];
    }
    return out;
}

void XGBoostCostModel::update(const std::vector<State> &states, const std::vector<MeasureResult> &results) {
    if (states.size() != results.size()) throw std::invalid_argument("XGBoostCostModel::update: sizes differ");
    ProgramBatch batch(features::kCount);
    std::vector<bool> replayed;
    featurise(states, batch, replayed, nullptr);
    std::vector<double> ms;
    for (size_t i = 0; i < states.size(); i++) {
        if (!replayed[i]) continue;
        const MeasureResult &r = results[i];
        // A failure is an infinite time (throughput 0); a successful run
        // never counts as one, however short.
        ms.push_back(r.ok ? std::max(r.min_ms, 1e-9) : std::numeric_limits<double>::infinity());
    }
    if (ms.empty()) return;
    model_->add_programs(pipeline_id_, batch, ms);
    model_->retrain();
}

PretrainingSummary XGBoostCostModel::pretrain(const PretrainingSet &set, const std::vector<std::string> &own_keys,
                                              const std::string &target, const std::string &path) {
    return model_->pretrain(set, own_keys, target, path);
}

}  // namespace ansor
