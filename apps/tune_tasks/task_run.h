#pragma once
// One task of a task file being tuned in this process: its pipeline built
// from the generator, its DAG and pipeline key (the same key the plugin
// computes for a GenGen build of that generator and params), its history
// from the tuning log, and, from its first unit on, the measurer, cost model
// and Tuner of src/search (the plugin's search, driven round by round).
#include "task_file.h"

#include "measure/measurer.h"
#include "options/options.h"
#include "records/tuning_log.h"
#include "search/tuner.h"
#include "sketch/sketch_generator.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ansor_tasks {

// What every task shares: the target the log files records under, the
// thread count, and the plugin's HL_ANSOR_* search options.
struct TuningSetup {
    Halide::Target target;
    int parallelism = 2;
    ansor::Options options;
    uint64_t seed = 0;
};

class TaskRun {
public:
    // Builds the pipeline and analyses it; throws std::invalid_argument
    // (bad generator or params) or ansor::UserError (e.g. missing estimates).
    TaskRun(const TaskSpec &spec, const TuningSetup &setup);
    TaskRun(const TaskRun &) = delete;
    TaskRun &operator=(const TaskRun &) = delete;

    const TaskSpec &spec() const { return spec_; }
    const ansor::PipelineDAG &dag() const { return *dag_; }
    const ansor::PipelineKey &key() const { return *key_; }

    // This pipeline's records in `log` (file order); they count as trials
    // already spent and train the model when the tuner starts.
    void load_history(const ansor::TuningLog &log);
    const std::vector<ansor::TuningRecord> &logged() const { return logged_; }

    using ModelFactory = std::function<std::unique_ptr<ansor::CostModel>(const TaskRun &)>;
    // Measures `trials` more programs (one round when trials ≤ the round
    // size), appending each to `log`. The first call creates the measurer
    // (which runs the all-at-root reference once), the model and the
    // tuner, and hands it the logged history. Returns the trials measured
    // (fewer when the search space has run dry). Throws what the measurer
    // throws when the pipeline cannot run at all.
    int tune(int trials, const ansor::TuningLog &log, const ModelFactory &make_model);

    int trials() const { return (int)logged_.size() + trials_; }
    int failures() const { return logged_failures_ + failures_; }
    double best_ms() const { return best_ms_; }  // +inf before a valid program
    // All-at-root time of the pipeline, once the measurer exists.
    std::optional<double> reference_ms() const;

    // Up to k of this run's (not the log's) successful programs of the last
    // tune() call, fastest first: what foresee tuning passes on.
    std::vector<ansor::State> last_unit_best(size_t k) const;
    // `state` of another task rebuilt for this pipeline through canonical
    // names, if its steps replay here (same operation structure).
    std::optional<ansor::State> transfer(const ansor::State &state, const TaskRun &from) const;
    // Queues programs for the next round (Tuner::suggest); kept until the
    // tuner exists.
    void suggest(std::vector<ansor::State> states);
    int transferred_measured() const { return transferred_measured_; }

private:
    TaskSpec spec_;
    TuningSetup setup_;
    GeneratorPipeline built_;
    std::unique_ptr<ansor::PipelineDAG> dag_;
    std::unique_ptr<ansor::PipelineKey> key_;
    ansor::AnnotationOptions annotation_;
    std::unique_ptr<ansor::RandomAnnotator> annotator_;
    std::unique_ptr<ansor::ProgramSampler> sampler_;
    std::unique_ptr<ansor::ForkMeasurer> measurer_;
    std::unique_ptr<ansor::CostModel> model_;
    std::unique_ptr<ansor::Tuner> tuner_;
    std::vector<ansor::TuningRecord> logged_;
    std::vector<ansor::TrialRecord> last_unit_;
    std::vector<ansor::State> pending_suggestions_;
    std::set<std::string> suggested_keys_;
    int logged_failures_ = 0, trials_ = 0, failures_ = 0, transferred_measured_ = 0;
    double best_ms_;
};

// The tuner settings the plugin derives from HL_ANSOR_* (search policy,
// round size, ε, evolution), with `seed`.
ansor::TunerOptions tuner_options_from(const ansor::Options &o, uint64_t seed);
ansor::MeasureOptions measure_options_from(const ansor::Options &o, const Halide::Target &target, int threads);

}  // namespace ansor_tasks
