#pragma once
// Everything a tuning session is configured by, and the one function that
// turns the HL_ANSOR_* options into it. The plugin, ansor_tune_tasks and
// every tool that tunes derive their components' settings here, so an
// option reaches every tool the same way (test_session_settings.cpp checks
// the plugin's path against the task tool's for every option).
#include "annotate/random_annotator.h"
#include "measure/measurer.h"
#include "options/choices.h"
#include "options/options.h"
#include "search/tuner.h"

#include <Halide.h>

#include <string>

namespace ansor {

struct SessionSettings {
    AnnotationOptions annotation;
    MeasureOptions measure;
    // The search loop: policy, trial budget, round size, ε, evolution, and
    // the seed (which also seeds the cost model).
    TunerOptions tuner;
    CostModelKind cost_model = CostModelKind::XGBoost;
    ModelObjective model_objective = ModelObjective::Pairwise;
    // Tuning log: records of this pipeline and target are read when the
    // session starts and every measurement is appended ("" for none).
    std::string log;
    // false: the log is only appended to; the session starts cold (tools
    // that compare searches from scratch and record what they measure).
    bool resume_from_log = true;
    // Cost model file the XGBoost model starts from (model/model_file.h; ""
    // for none): it ranks from the first round and picks the zero-shot program.
    std::string model_file;
    // Cost model file that chooses the zero-shot program among the
    // model_file's finalists (TuningSession::zero_shot_choice; "" for none:
    // the model_file's best is applied).
    std::string judge_model_file;
    // Pretraining set that trains the cost model before the first round ("" for none).
    std::string pretrain;
    // Sketches kept, in generation order (0: all). An ablation's knob.
    size_t max_sketches = 0;
    bool progress = true;  // progress lines on stderr
    bool verbose = false;  // every candidate's schedule and error on stderr
    // When tuning measured candidates and none ran correctly (nor a logged
    // one): false, choose() throws a UserError listing their first errors;
    // true, it applies every Func at root with a warning.
    bool allow_root_fallback = false;
    // host_cpu_id() of the machines that measure, when not this one (the
    // worker ranks of a distributed run): the log's history is read for that
    // host class, as the records its measurements append name it. "": this machine.
    std::string measure_host;
};

// The settings the options ask for, for `dag` on `target`.
SessionSettings session_settings(const Options &options, const PipelineDAG &dag, const Halide::Target &target);

// The measurement settings the options ask for, on `target` with `threads` threads.
MeasureOptions measure_options(const Options &options, const Halide::Target &target, int threads);

// The annotation settings the options ask for.
AnnotationOptions annotation_options(const Options &options, int parallelism);

// Scoring a candidate costs about linearly in the pipeline's Funcs, so the
// default population shrinks past 12 Funcs; a population the user set is kept.
int population_for(const Options &options, size_t funcs);

// Every setting as "name=value" lines, in a fixed order: for comparing two
// tools' settings and for printing them.
std::string describe(const SessionSettings &settings);

}  // namespace ansor
