#include "task_run.h"

#include "records/canonical_steps.h"
#include "search/autoschedule.h"
#include "util/errors.h"
#include "util/target.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ansor_tasks {

using namespace ansor;

TunerOptions tuner_options_from(const Options &o, uint64_t seed) {
    TunerOptions t;
    t.measures_per_round = o.measures_per_round;
    t.epsilon = o.epsilon;
    t.evolution.population = o.population;
    t.evolution.generations = o.generations;
    t.evolution.mutation_probability = o.mutation_probability;
    t.evolution.crossover_share = o.crossover_share;
    t.evolution.max_structure_share = o.structure_share;
    t.seed = seed;
    SearchPolicy policy = o.search == "random" ? SearchPolicy::Random
                        : o.search == "model"  ? SearchPolicy::Model
                                               : SearchPolicy::Evolution;
    return with_policy(t, policy);
}

MeasureOptions measure_options_from(const Options &o, const Halide::Target &target, int threads) {
    MeasureOptions m;
    m.target = measurement_target(target);
    m.threads = threads;
    m.timeout_s = o.timeout_s;
    m.repeats = o.repeats;
    m.tolerance = o.tolerance;
    return m;
}

TaskRun::TaskRun(const TaskSpec &spec, const TuningSetup &setup)
    : spec_(spec), setup_(setup), best_ms_(std::numeric_limits<double>::infinity()) {
    built_ = build_generator_pipeline(spec.generator, spec.params, setup.target);
    dag_ = std::make_unique<PipelineDAG>(built_.outputs(), setup.parallelism);
    key_ = std::make_unique<PipelineKey>(make_pipeline_key(*dag_));
    // The plugin's annotation settings (src/search/autoschedule.cpp).
    annotation_ = ansor::annotation_options(setup.options, dag_->parallelism());
    annotator_ = std::make_unique<RandomAnnotator>(*dag_, setup.target, annotation_);
    sampler_ = std::make_unique<ProgramSampler>(generate_sketches({*dag_, setup.target}), *annotator_);
}

void TaskRun::load_history(const TuningLog &log) {
    logged_ = log.load(*dag_, *key_, setup_.target);
    logged_failures_ = 0;
    for (const auto &r : logged_) {
        if (!r.ok) logged_failures_++;
        else best_ms_ = std::min(best_ms_, r.min_ms);
    }
}

std::optional<double> TaskRun::reference_ms() const {
    if (!measurer_) return std::nullopt;
    return measurer_->reference().min_ms;
}

int TaskRun::tune(int count, const TuningLog &log, const ModelFactory &make_model) {
    if (!tuner_) {
        measurer_ = std::make_unique<ForkMeasurer>(*dag_, measure_options_from(setup_.options, setup_.target,
                                                                                dag_->parallelism()));
        model_ = make_model(*this);
        tuner_ = std::make_unique<Tuner>(*sampler_, *annotator_, annotation_, *measurer_, *model_,
                                         tuner_options_from(setup_.options, setup_.seed));
        std::vector<TrialRecord> earlier;
        for (const auto &r : logged_) {
            MeasureResult m;
            m.ok = r.ok;
            m.error = r.error;
            m.min_ms = r.min_ms;
            m.median_ms = r.median_ms;
            m.seconds = r.seconds;
            earlier.push_back({*r.state, m});
        }
        tuner_->add_history(earlier);
    }
    if (!pending_suggestions_.empty()) {
        tuner_->suggest(std::move(pending_suggestions_));
        pending_suggestions_.clear();
    }
    last_unit_.clear();
    tuner_->on_measured = [&](const TrialRecord &t) {
        RecordMeta meta;
        meta.trial = trials();
        meta.seed = setup_.seed;
        trials_++;
        if (suggested_keys_.count(t.state.key())) transferred_measured_++;
        if (!t.result.ok) failures_++;
        else best_ms_ = std::min(best_ms_, t.result.min_ms);
        last_unit_.push_back(t);
        try {
            log.append(*key_, setup_.target, t.state, t.result, meta);
        } catch (const InvalidState &e) {
            std::fprintf(stderr, "[tune] warning: could not record a trial of %s in %s: %s\n", spec_.name.c_str(),
                         log.path().c_str(), e.what());
        }
    };
    const int before = trials_;
    tuner_->run_more(count);
    return trials_ - before;
}

std::vector<State> TaskRun::last_unit_best(size_t k) const {
    std::vector<const TrialRecord *> ok;
    for (const auto &t : last_unit_)
        if (t.result.ok) ok.push_back(&t);
    std::stable_sort(ok.begin(), ok.end(),
                     [](const TrialRecord *a, const TrialRecord *b) { return a->result.min_ms < b->result.min_ms; });
    std::vector<State> out;
    for (size_t i = 0; i < ok.size() && i < k; i++) out.push_back(ok[i]->state);
    return out;
}

std::optional<State> TaskRun::transfer(const State &state, const TaskRun &from) const {
    try {
        nlohmann::json steps = canonical_steps(state, from.key().names);
        State s = state_from_canonical_steps(*dag_, key_->names, steps);
        s.replay();  // the steps must fit this pipeline's loops
        return s;
    } catch (const std::exception &) {
        // Another structure (e.g. padding where the other task has none):
        // the program does not exist here.
        return std::nullopt;
    }
}

void TaskRun::suggest(std::vector<State> states) {
    for (auto &s : states) {
        suggested_keys_.insert(s.key());
        pending_suggestions_.push_back(std::move(s));
    }
}

}  // namespace ansor_tasks
