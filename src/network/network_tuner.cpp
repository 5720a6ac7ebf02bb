#include "network/network_tuner.h"

#include "model/make_cost_model.h"
#include "network/resumed_units.h"
#include "options/choices.h"
#include "records/pretraining_set.h"
#include "util/errors.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace ansor {

NetworkTuner::NetworkTuner(const TaskFile &file, const TuningSetup &setup, NetworkTunerSettings settings)
    : file_(file), setup_(setup), settings_(std::move(settings)),
      models_(setup.seed, pack_sum_objective(setup.options.model_objective)) {
    std::map<std::string, std::string> task_of_key;
    for (const TaskSpec &spec : file_.tasks) {
        try {
            runs_.push_back(std::make_unique<TaskRun>(spec, setup_));
        } catch (const std::exception &e) {
            throw UserError(file_.path + ": task '" + spec.name + "': " + e.what());
        }
        const TaskRun &run = *runs_.back();
        auto [it, fresh] = task_of_key.emplace(run.key().hash, spec.name);
        if (!fresh) {
            throw UserError(file_.path + ": tasks '" + it->second + "' and '" + spec.name +
                            "' are the same pipeline (key " + run.key().hash + "); make them one task and add their weights");
        }
        Task t;
        t.name = spec.name;
        t.weight = spec.weight;
        t.networks.clear();
        for (const auto &n : spec.networks) t.networks.push_back(file_.network_index(n));
        t.flops = run.dag().flop_count();
        t.reference_latency = spec.reference_ms;
        t.family = family_key(spec, run.key(), settings_.families);
        tasks_.push_back(t);
    }
}

NetworkTuner::~NetworkTuner() = default;

// Cost models: one per task (the session's own, as the plugin's), per family
// (FamilySeer) or one for all (Ansor), shared through models_. A pretraining
// set (HL_ANSOR_PRETRAIN) is read once, for models_ or for every session.
void NetworkTuner::start_sessions() {
    const Options &options = setup_.options;
    const bool shared_models = settings_.models != ModelGrouping::PerTask && options.cost_model == CostModelKind::XGBoost;
    std::shared_ptr<const PretrainingSet> pretraining;
    if (!options.pretrain.empty()) {
        if (options.cost_model != CostModelKind::XGBoost)
            throw UserError(std::string("HL_ANSOR_PRETRAIN needs HL_ANSOR_COST_MODEL=xgboost, not ") +
                            choice_name(options.cost_model));
        pretraining = std::make_shared<PretrainingSet>(read_pretraining_set(options.pretrain));
        if (shared_models) {
            std::vector<std::string> task_keys;
            for (const auto &r : runs_) task_keys.push_back(r->key().hash);
            PretrainingSummary s = models_.pretrain(*pretraining, task_keys, setup_.target.to_string(), options.pretrain);
            std::fprintf(stderr, "[tasks] every %s model starts from %zu programs of %zu other pipelines in %s\n",
                         model_grouping_name(settings_.models), s.programs, s.pipelines, options.pretrain.c_str());
            pretraining.reset();  // models_ holds what it needs
        }
    }
    for (size_t i = 0; i < runs_.size(); i++) {
        SessionParts parts;
        parts.pretraining = pretraining;
        if (settings_.measurers) parts.make_measurer = settings_.measurers((int)i, *runs_[i]);
        if (shared_models) {
            const std::string group = settings_.models == ModelGrouping::Family ? tasks_[i].family : "all";
            const std::string task_key = runs_[i]->key().hash;
            parts.make_model = [this, group, task_key](const PipelineDAG &dag) {
                return models_.view(group, task_key, dag);
            };
        }
        runs_[i]->start(std::move(parts));
        spent_ += (int)runs_[i]->logged().size();
    }
}

void NetworkTuner::tune() {
    if (scheduler_) throw std::logic_error("NetworkTuner::tune called twice");
    std::shared_ptr<const Objective> objective = make_network_objective(settings_.objective, tasks_, file_);
    const TaskSchedulerOptions options = scheduler_options(settings_);
    scheduler_ = std::make_unique<TaskScheduler>(tasks_, objective, options);
    start_sessions();
    const int round = setup_.options.measures_per_round;
    const std::vector<LoggedUnit> resumed = logged_units(runs_, round);
    for (const LoggedUnit &u : resumed) {
        if (scheduler_->status(u.task) == TaskStatus::Active) scheduler_->report(u.task, u.best);
    }
    if (!settings_.csv.empty()) {
        csv_ = std::make_unique<UnitCsv>(settings_.csv, file_, tasks_);
        if (csv_->fresh()) write_logged_unit_rows(*csv_, resumed, runs_, tasks_, objective, options);
    }
    print_header();

    first_unit_ = std::chrono::steady_clock::now();
    while (spent_ + spent_now_ < settings_.trials) {
        std::optional<int> next = scheduler_->next_task();
        if (!next) {
            std::fprintf(stderr, "[tune] every task is retired; stopping with %d trials left\n",
                         settings_.trials - spent_ - spent_now_);
            break;
        }
        const int i = *next;
        const int measured = tune_unit(i, std::min(round, settings_.trials - spent_ - spent_now_));
        // A unit that measured nothing (an exhausted space, a failing task)
        // still costs one trial, so that the loop ends.
        spent_now_ += std::max(measured, 1);
        scheduler_->report(i, runs_[i]->best_ms());
        if (settings_.foresee > 0) pass_on_best_programs(i);
        if (csv_) {
            csv_->row(scheduler_->total_units(), i, runs_[i]->trials(), spent_ + spent_now_, seconds_since_first_unit(),
                      *scheduler_);
        }
        if (settings_.progress) print_progress(i, measured);
    }
}

int NetworkTuner::tune_unit(int task, int trials) {
    try {
        return runs_[task]->tune(trials);
    } catch (const std::exception &e) {
        // A pipeline that cannot run at all (its reference fails) has no
        // valid program; the scheduler retires it after its cap.
        std::fprintf(stderr, "[tune] task %s failed: %s\n", tasks_[task].name.c_str(), e.what());
        return 0;
    }
}

void NetworkTuner::pass_on_best_programs(int task) {
    std::vector<State> found = runs_[task]->last_unit_best(settings_.foresee);
    for (int j = 0; j < (int)tasks_.size(); j++) {
        if (j == task || tasks_[j].family != tasks_[task].family || scheduler_->status(j) != TaskStatus::Active) continue;
        std::vector<State> moved;
        for (const auto &s : found)
            if (auto t = runs_[j]->transfer(s, *runs_[task])) moved.push_back(std::move(*t));
        runs_[j]->suggest(std::move(moved));
    }
}

double NetworkTuner::seconds_since_first_unit() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - first_unit_).count();
}

}  // namespace ansor
