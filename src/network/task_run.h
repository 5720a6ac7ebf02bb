#pragma once
// One task of a task file being tuned in this process: its pipeline built
// from the generator, its DAG and pipeline key (the same key the plugin
// computes for a GenGen build of that generator and params), its history
// from the tuning log, and its TuningSession (the plugin's search, driven
// unit by unit).
#include "network/task_file.h"

#include "options/options.h"
#include "search/tuning_session.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ansor {

// What every task shares: the target the log files records under, the
// thread count, the plugin's HL_ANSOR_* search options, and what the tool
// takes as flags instead (--seed, --log).
struct TuningSetup {
    Halide::Target target;
    int parallelism = 2;
    Options options;
    uint64_t seed = 0;
    std::string log;  // "" for none
    // host_cpu_id() of the machines that measure when not this one (the
    // worker ranks of a distributed run); "" for this machine.
    std::string measure_host;
};

// The HL_ANSOR_* options the tool takes as flags instead (--trials, --log,
// --seed); it refuses to run with them set, so none is silently ignored.
const std::vector<std::string> &options_replaced_by_flags();

// The session settings of every task: the plugin's (session_settings
// of the options), with the seed and log of the flags. The trial budget is
// the task scheduler's, and the tool prints its own progress per unit.
SessionSettings task_session_settings(const TuningSetup &setup, const PipelineDAG &dag);

class TaskRun {
public:
    // Builds the pipeline and analyses it; throws std::invalid_argument
    // (bad generator or params) or UserError (e.g. missing estimates).
    TaskRun(const TaskSpec &spec, const TuningSetup &setup);
    ~TaskRun();
    TaskRun(const TaskRun &) = delete;
    TaskRun &operator=(const TaskRun &) = delete;

    const TaskSpec &spec() const { return spec_; }
    const PipelineDAG &dag() const { return *dag_; }
    const PipelineKey &key() const { return *key_; }

    // Starts the task's tuning session with `parts` (e.g. a family's shared
    // cost model) and reads its history from the log. Call once, before
    // tune() and logged().
    void start(SessionParts parts = {});
    // This pipeline's records in the log (file order); they count as trials
    // already spent and train the model when tuning starts.
    const std::vector<TuningRecord> &logged() const;

    // Measures `trials` more programs (one round when trials ≤ the round
    // size), each appended to the log. Returns the trials measured (fewer
    // when the search space has run dry). Throws what the measurer throws
    // when the pipeline cannot run at all.
    int tune(int trials);

    int trials() const { return (int)logged().size() + trials_; }
    int failures() const { return logged_failures_ + failures_; }
    double best_ms() const { return best_ms_; }  // +inf before a valid program
    // All-at-root time of the pipeline, once tuning has started.
    std::optional<double> reference_ms() const;

    // Up to k of this run's (not the log's) successful programs of the last
    // tune() call, fastest first: what foresee tuning passes on.
    std::vector<State> last_unit_best(size_t k) const;
    // `state` of another task rebuilt for this pipeline through canonical
    // names, if its steps replay here (same operation structure).
    std::optional<State> transfer(const State &state, const TaskRun &from) const;
    // Queues programs for the next round (Tuner::suggest).
    void suggest(std::vector<State> states);
    int transferred_measured() const { return transferred_measured_; }

private:
    TuningSession &session() const;

    TaskSpec spec_;
    TuningSetup setup_;
    GeneratorPipeline built_;
    std::unique_ptr<PipelineDAG> dag_;
    std::unique_ptr<PipelineKey> key_;
    std::unique_ptr<TuningSession> session_;
    std::vector<TrialRecord> last_unit_;
    std::set<std::string> suggested_keys_;
    int logged_failures_ = 0, trials_ = 0, failures_ = 0, transferred_measured_ = 0;
    double best_ms_;
};

}  // namespace ansor
