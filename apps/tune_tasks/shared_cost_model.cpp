#include "shared_cost_model.h"

#include "state/state.h"

#include "util/errors.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace ansor_tasks {

namespace {

using namespace ansor;

class SharedModelView : public CostModel {
public:
    SharedModelView(SharedModelPool::Group &group, std::string task_id, const PipelineDAG &dag)
        : group_(group), task_id_(std::move(task_id)), extractor_(dag) {}

    std::vector<double> predict(const std::vector<State> &states) override {
        std::vector<double> out;
        for (const auto &p : predict_stages(states)) out.push_back(p.score);
        return out;
    }

    std::vector<ProgramPrediction> predict_stages(const std::vector<State> &states) override {
        ProgramBatch batch(features::kCount);
        std::vector<bool> replayed;
        std::vector<ProgramPrediction> out;
        featurise(states, batch, replayed, &out);
        PackSumPrediction scores = group_.trees.predict(batch);
        size_t program = 0;
        for (size_t i = 0; i < states.size(); i++) {
            if (!replayed[i]) {
                out[i].score = -std::numeric_limits<double>::infinity();
                continue;
            }
            out[i].score = scores.programs[program];
            for (size_t r = batch.begin[program]; r < batch.begin[program + 1]; r++)
                out[i].stage_scores.push_back(scores.statements[r]);
            program++;
        }
        return out;
    }

    // Trained on another task of the group already: it ranks this one's programs too.
    bool can_rank() const override { return group_.trees.trained(); }

    // The group's data grows by this task's programs and the group's trees
    // are retrained from scratch on all of it (as Ansor retrains each round).
    void update(const std::vector<State> &states, const std::vector<MeasureResult> &results) override {
        if (states.size() != results.size()) throw std::invalid_argument("SharedModelView::update: sizes differ");
        std::vector<bool> replayed;
        const size_t before = group_.data.programs();
        featurise(states, group_.data, replayed, nullptr);
        for (size_t i = 0; i < states.size(); i++) {
            if (!replayed[i]) continue;
            const MeasureResult &r = results[i];
            group_.ms.push_back(r.ok ? std::max(r.min_ms, 1e-9) : std::numeric_limits<double>::infinity());
            group_.tasks.push_back(task_id_);
        }
        if (group_.data.programs() == before) return;
        group_.trees.train(group_.data, normalized_throughputs(group_.tasks, group_.ms), pipeline_groups(group_.tasks));
        group_.retrains++;
    }

    std::string name() const override { return "xgboost-shared"; }

private:
    void featurise(const std::vector<State> &states, ProgramBatch &batch, std::vector<bool> &replayed,
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
            for (const StageFeatures &f : scratch_) {
                (*stages)[i].stage_funcs.push_back(model.funcs()[f.func].name);
                (*stages)[i].stage_indices.push_back(f.stage);
            }
        }
    }

    SharedModelPool::Group &group_;
    std::string task_id_;
    FeatureExtractor extractor_;
    std::vector<StageFeatures> scratch_;
};

}  // namespace

std::unique_ptr<ansor::CostModel> SharedModelPool::view(const std::string &group, const std::string &task_id,
                                                        const ansor::PipelineDAG &dag) {
    auto &g = groups_[group];
    if (!g) {
        ansor::PackSumParams p;
        p.seed = seed_;
        p.objective = objective_;
        g = std::make_unique<Group>(p);
        if (!pretraining_tasks_.empty()) {
            g->data = pretraining_;
            g->tasks = pretraining_tasks_;
            g->ms = pretraining_ms_;
            g->trees.train(g->data, normalized_throughputs(g->tasks, g->ms), pipeline_groups(g->tasks));
            g->retrains++;
        }
    }
    return std::make_unique<SharedModelView>(*g, task_id, dag);
}

ansor::PretrainingSummary SharedModelPool::pretrain(const ansor::PretrainingSet &set,
                                                   const std::vector<std::string> &task_keys, const std::string &target,
                                                   const std::string &path) {
    if (!groups_.empty()) throw std::logic_error("SharedModelPool::pretrain after view()");
    if (set.target != target) {
        throw ansor::UserError("the pretraining set " + path + " was measured on target " + set.target +
                               ", not on this one (" + target + ")");
    }
    ansor::PretrainingSummary summary;
    for (const ansor::PretrainingPipeline &p : set.pipelines) {
        if (std::find(task_keys.begin(), task_keys.end(), p.key) != task_keys.end()) continue;
        for (size_t i = 0; i < p.programs.programs(); i++) {
            pretraining_.add(p.programs.rows.data() + p.programs.begin[i] * p.programs.num_features,
                             p.programs.statements(i));
            pretraining_tasks_.push_back(p.key);
            pretraining_ms_.push_back(p.ms[i]);
        }
        summary.programs += p.programs.programs();
        summary.pipelines++;
    }
    if (summary.programs == 0) {
        throw ansor::UserError("the pretraining set " + path + " holds no programs of pipelines other than the tasks'");
    }
    return summary;
}

}  // namespace ansor_tasks
