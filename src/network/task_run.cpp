#include "network/task_run.h"

#include "records/canonical_steps.h"
#include "util/errors.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace ansor {

const std::vector<std::string> &options_replaced_by_flags() {
    static const std::vector<std::string> names = {"HL_ANSOR_TRIALS", "HL_ANSOR_LOG", "HL_ANSOR_SEED"};
    return names;
}

SessionSettings task_session_settings(const TuningSetup &setup, const PipelineDAG &dag) {
    SessionSettings s = session_settings(setup.options, dag, setup.target);
    s.tuner.seed = setup.seed;
    s.log = setup.log;
    s.measure_host = setup.measure_host;
    s.tuner.trials = 0;
    s.progress = false;
    return s;
}

TaskRun::TaskRun(const TaskSpec &spec, const TuningSetup &setup)
    : spec_(spec), setup_(setup), best_ms_(std::numeric_limits<double>::infinity()) {
    built_ = build_generator_pipeline(spec.generator, spec.params, setup.target);
    dag_ = std::make_unique<PipelineDAG>(built_.outputs(), setup.parallelism);
    key_ = std::make_unique<PipelineKey>(make_pipeline_key(*dag_));
}

TaskRun::~TaskRun() = default;

void TaskRun::start(SessionParts parts) {
    if (session_) throw std::logic_error("TaskRun::start called twice for task " + spec_.name);
    session_ = std::make_unique<TuningSession>(*dag_, setup_.target, task_session_settings(setup_, *dag_), std::move(parts));
    for (const auto &r : session_->history()) {
        if (!r.ok) logged_failures_++;
        else best_ms_ = std::min(best_ms_, r.min_ms);
    }
    session_->on_measured = [this](const TrialRecord &t) {
        trials_++;
        if (suggested_keys_.count(t.state.key())) transferred_measured_++;
        if (!t.result.ok) failures_++;
        else best_ms_ = std::min(best_ms_, t.result.min_ms);
        last_unit_.push_back(t);
    };
}

TuningSession &TaskRun::session() const {
    if (!session_) throw std::logic_error("task " + spec_.name + " has not been started");
    return *session_;
}

const std::vector<TuningRecord> &TaskRun::logged() const {
    static const std::vector<TuningRecord> none;
    return session_ ? session_->history() : none;
}

std::optional<double> TaskRun::reference_ms() const {
    return session_ ? session_->reference_ms() : std::nullopt;
}

int TaskRun::tune(int count) {
    last_unit_.clear();
    return session().tune(count);
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
    for (const auto &s : states) suggested_keys_.insert(s.key());
    session().suggest(std::move(states));
}

}  // namespace ansor
