#include "search/session_settings.h"

#include "model/model_file.h"
#include "util/target.h"

#include <algorithm>
#include <sstream>

namespace ansor {

int population_for(const Options &o, size_t funcs) {
    // An 87-Func local Laplacian would otherwise spend minutes per round
    // scoring candidates before measuring anything.
    if (o.population_given || funcs <= 12) return o.population;
    return std::max(256, (int)(o.population * 12 / funcs));
}

AnnotationOptions annotation_options(const Options &options, int parallelism) {
    AnnotationOptions ao;
    ao.parallelism = parallelism;
    ao.max_innermost_factor = options.max_innermost_factor;
    ao.max_reduction_factor = options.max_reduction_factor;
    ao.max_consumer_tile = options.max_consumer_tile;
    ao.vector_tile_bias = options.vector_tile_bias;
    ao.auto_unroll_steps.clear();
    for (int s : {0, 16, 64, 512}) {
        if (s <= options.auto_unroll_max_step) ao.auto_unroll_steps.push_back(s);
    }
    return ao;
}

MeasureOptions measure_options(const Options &o, const Halide::Target &target, int threads) {
    MeasureOptions m;
    m.target = measurement_target(target);
    m.threads = threads;
    m.timeout_s = o.timeout_s;
    m.builders = o.builders;
    m.memory_limit_bytes = o.memory_limit;
    m.repeats = o.repeats;
    m.measure_seconds = o.measure_seconds;
    m.tolerance = o.tolerance;
    m.runner = o.runner;
    m.fresh_process = o.fresh_process_timing;
    return m;
}

namespace {

TunerOptions tuner_options(const Options &o, size_t funcs) {
    TunerOptions t;
    t.trials = o.trials;
    t.measures_per_round = o.measures_per_round;
    t.epsilon = o.epsilon;
    t.evolution.population = population_for(o, funcs);
    t.evolution.generations = o.generations;
    t.evolution.mutation_probability = o.mutation_probability;
    t.evolution.crossover_share = o.crossover_share;
    t.evolution.max_structure_share = o.structure_share;
    t.evolution.first_round_structure_share = o.first_structure_share;
    t.evolution.sketch_coverage_share = o.sketch_coverage_share;
    t.seed = o.seed;
    return with_policy(t, o.search);
}

}  // namespace

SessionSettings session_settings(const Options &options, const PipelineDAG &dag, const Halide::Target &target) {
    SessionSettings s;
    s.annotation = annotation_options(options, dag.parallelism());
    s.measure = measure_options(options, target, dag.parallelism());
    s.tuner = tuner_options(options, dag.nodes().size());
    s.cost_model = options.cost_model;
    s.model_objective = options.model_objective;
    s.log = options.log;
    s.pretrain = options.pretrain;
    s.model_file = options.model == "none" ? "" : !options.model.empty() ? options.model : shipped_model_path();
    s.judge_model_file = options.judge_model == "none"    ? ""
                         : !options.judge_model.empty() ? options.judge_model
                                                        : shipped_judge_model_path();
    s.progress = options.progress;
    s.verbose = options.verbose;
    s.allow_root_fallback = options.allow_root_fallback;
    return s;
}

std::string describe(const SessionSettings &s) {
    std::ostringstream o;
    o << "annotation.parallelism=" << s.annotation.parallelism << "\n"
      << "annotation.max_innermost_factor=" << s.annotation.max_innermost_factor << "\n"
      << "annotation.max_reduction_factor=" << s.annotation.max_reduction_factor << "\n"
      << "annotation.max_consumer_tile=" << s.annotation.max_consumer_tile << "\n"
      << "annotation.vector_tile_bias=" << s.annotation.vector_tile_bias << "\n"
      << "annotation.auto_unroll_steps=";
    for (int step : s.annotation.auto_unroll_steps) o << step << ",";
    o << "\n"
      << "measure.target=" << s.measure.target.to_string() << "\n"
      << "measure.threads=" << s.measure.threads << "\n"
      << "measure.timeout_s=" << s.measure.timeout_s << "\n"
      << "measure.builders=" << s.measure.builders << "\n"
      << "measure.repeats=" << s.measure.repeats << "\n"
      << "measure.measure_seconds=" << s.measure.measure_seconds << "\n"
      << "measure.max_repeats=" << s.measure.max_repeats << "\n"
      << "measure.tolerance=" << s.measure.tolerance << "\n"
      << "measure.memory_limit_bytes=" << s.measure.memory_limit_bytes << "\n"
      << "measure.runner=" << s.measure.runner << "\n"
      << "measure.fresh_process=" << s.measure.fresh_process << "\n"
      << "tuner.policy=" << choice_name(s.tuner.policy) << "\n"
      << "tuner.trials=" << s.tuner.trials << "\n"
      << "tuner.measures_per_round=" << s.tuner.measures_per_round << "\n"
      << "tuner.epsilon=" << s.tuner.epsilon << "\n"
      << "tuner.seed_share=" << s.tuner.seed_share << "\n"
      << "tuner.suggestion_share=" << s.tuner.suggestion_share << "\n"
      << "tuner.seed=" << s.tuner.seed << "\n"
      << "evolution.population=" << s.tuner.evolution.population << "\n"
      << "evolution.generations=" << s.tuner.evolution.generations << "\n"
      << "evolution.mutation_probability=" << s.tuner.evolution.mutation_probability << "\n"
      << "evolution.crossover_share=" << s.tuner.evolution.crossover_share << "\n"
      << "evolution.max_structure_share=" << s.tuner.evolution.max_structure_share << "\n"
      << "evolution.first_round_structure_share=" << s.tuner.evolution.first_round_structure_share << "\n"
      << "evolution.sketch_coverage_share=" << s.tuner.evolution.sketch_coverage_share << "\n"
      << "cost_model=" << choice_name(s.cost_model) << "\n"
      << "model_objective=" << choice_name(s.model_objective) << "\n"
      << "log=" << s.log << "\n"
      << "resume_from_log=" << s.resume_from_log << "\n"
      << "pretrain=" << s.pretrain << "\n"
      << "model_file=" << s.model_file << "\n"
      << "judge_model_file=" << s.judge_model_file << "\n"
      << "max_sketches=" << s.max_sketches << "\n"
      << "progress=" << s.progress << "\n"
      << "verbose=" << s.verbose << "\n"
      << "allow_root_fallback=" << s.allow_root_fallback << "\n"
      << "measure_host=" << s.measure_host << "\n";
    return o.str();
}

}  // namespace ansor
