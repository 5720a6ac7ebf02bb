#pragma once
// One pipeline's tuning, wired once for every tool: the plugin, ansor_tune_tasks,
// ansor_tuning_curve and the measurement tools all tune through a
// TuningSession. It owns the sketches, the annotator and sampler, the
// measurer, the cost model (pretrained if asked), the tuner, the tuning
// log's history and appends, progress printing and the final choice of the
// program to apply.
//
//   TuningSession session(dag, target, Options::from_environment());
//   if (session.settings().tuner.trials > 0) session.tune();
//   SessionChoice choice = session.choose();
#include "measure/compile_check.h"
#include "measure/make_measurer.h"
#include "model/cost_model.h"
#include "records/pipeline_key.h"
#include "records/pretraining_set.h"
#include "records/tuning_log.h"
#include "search/program_sampler.h"
#include "search/session_settings.h"
#include "search/tuner.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ansor {

class GpuVerifier;

// Components a tool supplies in place of the session's own.
struct SessionParts {
    // Default: the measurer make_measurer chooses (measure/make_measurer.h).
    MeasurerFactory make_measurer;
    // Default: the model settings.cost_model names, pretrained on
    // settings.pretrain. A supplied model is used as it comes: whoever
    // shares it across pipelines pretrains it (ansor_tune_tasks' family models).
    std::function<std::unique_ptr<CostModel>(const PipelineDAG &)> make_model;
    // settings.pretrain already read, for tools that start many sessions.
    std::shared_ptr<const PretrainingSet> pretraining;
    // Default: compile checks (measure/compile_check.h) in sandboxed
    // children, as many at once as HL_ANSOR_BUILDERS, with the zero-shot
    // compile limit; tests put in failures (checked one at a time).
    std::function<CompileCheck(const State &, double timeout_s)> check_compile;
};

// The program a session applies, and how it was chosen.
struct SessionChoice {
    State state;
    struct How {
        bool measured = false;  // false: nothing valid was measured or logged
        bool from_log = false;  // the log's best record, applied without measuring
        bool zero_shot = false; // ranked best by the cost model, nothing measured
        std::string ranked_by;  // the ranking model's name where it is not the session's cost model
        std::string judged_by;  // zero-shot: the judge model file that chose among the finalists ("" for none)
        int finalist = 0, finalists = 0;  // zero-shot with a judge: the chosen finalist's rank by the cost model (0: best), of how many
        // Zero-shot: the finalists passed over because they did not compile
        // in time or at all, in the order they were tried, with why.
        std::vector<std::string> skipped;
        // Zero-shot: the finalists the judge preferred that were tried after
        // the others for leaving threads idle (idle_threads.h), with why.
        std::vector<std::string> passed_over;
        double best_ms = 0;
        int trials = 0, failures = 0;  // this session's measurements
        std::string not_measured_because;  // why the pipeline could not be measured, if it could not
        std::string gpu_verification;      // GPU targets without a GPU: how the applied program was verified
    } how;
    // The schedule source: a comment line saying how it was chosen, then the schedule.
    std::string source;
};

class TuningSession {
public:
    // The plugin's path: every setting from the HL_ANSOR_* options.
    TuningSession(const PipelineDAG &dag, const Halide::Target &target, const Options &options);
    // Tools that vary the settings. Reads the log's history for this
    // pipeline now (settings.log with resume_from_log).
    TuningSession(const PipelineDAG &dag, const Halide::Target &target, SessionSettings settings,
                  SessionParts parts = {});
    ~TuningSession();
    TuningSession(const TuningSession &) = delete;
    TuningSession &operator=(const TuningSession &) = delete;

    const SessionSettings &settings() const { return settings_; }
    const PipelineDAG &dag() const { return dag_; }
    const Halide::Target &target() const { return target_; }
    const PipelineKey &key() const;
    const std::vector<State> &sketches() const { return sketches_; }
    const ProgramSampler &sampler() const { return *sampler_; }
    // This pipeline's records from the log measured under this session's
    // conditions (target, measure.threads, host, formats), in file order:
    // they train the model, seed the search and count for the best program.
    const std::vector<TuningRecord> &history() const { return history_; }

    // Measures `trials` more programs (fewer if the space runs dry) and
    // returns how many. A pipeline that cannot be measured (an unresolvable
    // extern stage, a Param without an estimate, a failing reference:
    // MeasurementUnavailable) measures none, with a warning, and choose()
    // then picks as without a budget. The first call creates the measurer (which runs the
    // all-at-root reference once), the model and the tuner, and hands the
    // tuner the history. Each measurement is appended to the log, then
    // passed to on_measured.
    int tune(int trials);
    int tune() { return tune(settings_.tuner.trials); }
    std::function<void(const TrialRecord &)> on_measured;

    // Programs proposed from outside the search (Tuner::suggest); kept until the tuner exists.
    void suggest(std::vector<State> states);

    // Measures programs outside the search: nothing is logged or learned.
    std::vector<MeasureResult> measure(const std::vector<State> &states);
    // The all-at-root reference's time, once the measurer exists.
    std::optional<double> reference_ms() const;
    // This session's measurements so far.
    const TuningOutcome &outcome() const;

    // The program to apply: the best measured one (this session's or the
    // history's); without a tune() call, the log's best record if there is a
    // log (UserError if it holds none), else the zero-shot choice of a cost
    // model that can rank (a model file or a pretraining set), else one
    // random program (said on stderr). After tune(), if nothing measured
    // ran correctly: a UserError listing the first candidates' errors, or,
    // with settings.allow_root_fallback, every Func at root and a warning.
    SessionChoice choose();

private:
    Measurer &measurer();
    // The session's cost model, made (and pretrained, and started from the
    // model file) on first use.
    CostModel &model();
    void start_tuner();
    // Zero-shot, measuring nothing: the cost model's finalists, and of them
    // the one the judge model scores best (the cost model's best without a
    // judge) among those that compile within the zero-shot compile limit,
    // tried in that order; none if the cost model cannot rank. Fills
    // how.judged_by, how.finalist and how.skipped. When no finalist
    // compiles (after a longer second try of the best one stopped at the
    // limit), every Func at root is applied with a warning: a zero-shot
    // build never fails because of its schedule.
    std::optional<State> zero_shot_choice(SessionChoice::How &how);
    // The finalists in the order the judge prefers them (the cost model's
    // order without a judge), and the judge's file in how.judged_by.
    std::vector<size_t> judged_order(const std::vector<State> &finalists, SessionChoice::How &how);
    // The first of programs[order...] whose compile check `accept`s, checked
    // one at a time; std::nullopt when none is accepted.
    std::optional<size_t> first_that_compiles(const std::vector<State> &programs, const std::vector<size_t> &order,
                                              double timeout_s,
                                              const std::function<bool(size_t, const CompileCheck &)> &accept);
    // The cost model's best program of each of its best sketches after
    // evolving a population under it, as the first round of tuning would
    // pick them (at most 8, one per structure while others
    // are on offer), best first; empty if the model cannot rank.
    std::vector<State> zero_shot_finalists();
    // The `count` programs `ranker` ranks best after evolving a population
    // under it (progress on stderr), best first, picked as `selection` says
    // (by default: EvolutionOptions::max_structure_share).
    std::vector<State> evolve_under(CostModel &ranker, int count, const Selection *selection = nullptr);
    // GPU targets without a GPU: the ranked (or sampled) candidates verified
    // in order; the first that passes.
    std::optional<State> verified_gpu_choice(SessionChoice::How &how);
    void record(const TrialRecord &t);
    void print_start() const;

    const PipelineDAG &dag_;
    Halide::Target target_;
    bool gpu_ = false;  // the target has a GPU feature (CUDA or OpenCL)
    SessionSettings settings_;
    SessionParts parts_;
    mutable std::optional<PipelineKey> key_;
    std::vector<State> sketches_;
    std::unique_ptr<RandomAnnotator> annotator_;
    std::unique_ptr<ProgramSampler> sampler_;
    std::optional<TuningLog> log_;
    std::vector<TuningRecord> history_;
    std::unique_ptr<Measurer> measurer_;
    std::optional<double> reference_ms_;
    std::unique_ptr<CostModel> model_;
    std::unique_ptr<Tuner> tuner_;
    std::vector<State> pending_suggestions_;
    int64_t logged_trials_ = 0;  // index of the next record appended
    std::string not_measured_because_;  // set when the measurer could not be made
    // GPU targets: times programs where a GPU does (adopted by measurer()),
    // else verifies the chosen one (gpu_choice.h).
    std::unique_ptr<GpuVerifier> gpu_verifier_;
};

}  // namespace ansor
