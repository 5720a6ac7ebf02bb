#pragma once
// Every HL_ANSOR_* option, read and validated in one place. The Halide 14
// plugin API passes nothing but the pipeline, target and machine params, so
// environment variables are the only channel.
#include "options/choices.h"
#include "util/memory_size.h"

#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ansor {

struct Options {
    int trials = 64;                 // HL_ANSOR_TRIALS: programs measured
    uint64_t seed = 0;               // HL_ANSOR_SEED: random seed of the search
    double timeout_s = 30;           // HL_ANSOR_TIMEOUT: per-candidate limit of the compile and of the run phase
    int builders = default_builders();  // HL_ANSOR_BUILDERS: candidates compiled at once
    uint64_t memory_limit = default_memory_limit_bytes();  // HL_ANSOR_MEMORY_LIMIT: bytes a measuring process may add
    bool allow_root_fallback = false;  // HL_ANSOR_ALLOW_ROOT_FALLBACK: all-root schedule when no candidate ran
    int repeats = 10;                // HL_ANSOR_REPEATS: timed runs per candidate (after one warm-up), at least
    double measure_seconds = 0.2;    // HL_ANSOR_MEASURE_SECONDS: timing window (MeasureOptions)
    bool fresh_process_timing = true;  // HL_ANSOR_TIMING: fresh-process (measure/fresh_process_measurer.h) or in-tuner
    double tolerance = 1e-3;         // HL_ANSOR_TOLERANCE: relative error allowed on float outputs
    int64_t max_innermost_factor = 64;  // HL_ANSOR_MAX_INNERMOST_FACTOR: largest innermost tile
    int64_t max_reduction_factor = 64;  // HL_ANSOR_MAX_REDUCTION_FACTOR: largest inner tile of a reduction loop
    int64_t max_consumer_tile = 512;    // HL_ANSOR_MAX_CONSUMER_TILE: largest consumer tile producers are computed in
    double vector_tile_bias = 0.8;   // HL_ANSOR_VECTOR_TILE_BIAS: see AnnotationOptions
    int auto_unroll_max_step = 512;  // HL_ANSOR_AUTO_UNROLL_MAX_STEP: largest auto-unroll step drawn
    bool verbose = false;            // HL_ANSOR_VERBOSE: print every candidate's schedule
    bool progress = true;            // HL_ANSOR_PROGRESS: progress lines on stderr
    SearchPolicy search = SearchPolicy::Evolution;         // HL_ANSOR_SEARCH
    CostModelKind cost_model = CostModelKind::XGBoost;     // HL_ANSOR_COST_MODEL
    ModelObjective model_objective = ModelObjective::Pairwise;  // HL_ANSOR_MODEL_OBJECTIVE
    int measures_per_round = 16;     // HL_ANSOR_MEASURES_PER_ROUND: programs measured between retrainings
    double epsilon = 0.05;           // HL_ANSOR_EPSILON: share of random programs per round
    int population = 2048;           // HL_ANSOR_POPULATION: evolution's population
    bool population_given = false;   // set explicitly: not scaled to the pipeline's size
    int generations = 4;             // HL_ANSOR_GENERATIONS: evolution's generations per round
    double mutation_probability = 0.85;  // HL_ANSOR_MUTATION_PROB
    double crossover_share = 0.2;    // HL_ANSOR_CROSSOVER: share of children made by crossover
    double structure_share = 0.5;    // HL_ANSOR_STRUCTURE_SHARE: most of a round one program structure may take
    double first_structure_share = 0.125;  // HL_ANSOR_FIRST_STRUCTURE_SHARE: the same before anything is measured
    double sketch_coverage_share = 0.25;   // HL_ANSOR_SKETCH_COVERAGE: share of a round for sketches not measured yet
    std::string log;                 // HL_ANSOR_LOG: JSON-lines tuning log (read to resume, appended to)
    std::string pretrain;            // HL_ANSOR_PRETRAIN: pretraining set of other pipelines' programs
    std::string runner;              // HL_ANSOR_RUNNER (formerly HL_ANSOR_GPU_RUNNER): ansor_runner's path (measure/runner_location.h)
    std::string model;               // HL_ANSOR_MODEL: cost model file the search starts from; "none"; "" = the shipped one
    std::string judge_model;         // HL_ANSOR_JUDGE_MODEL: model file that picks the zero-shot program; "none"; "" = the shipped one

    // Reads the process environment. Throws UserError for an unknown
    // HL_ANSOR_ name or a malformed value. A renamed option's old name is
    // read as the new one, with a deprecation warning on `warnings`
    // (stderr); where both are set, the new name's value is kept.
    static Options from_environment();
    static Options from_map(const std::map<std::string, std::string> &vars);
    static Options from_map(const std::map<std::string, std::string> &vars, std::ostream &warnings);
    // name -> one-line description, for error messages.
    static const std::map<std::string, std::string> &documentation();
    // The same descriptions in the README's order: its option table is
    // generated from them.
    static const std::vector<std::pair<std::string, std::string>> &documentation_in_order();
    // The machine's cores (std::thread::hardware_concurrency), at least 1.
    static int default_builders();
};

}  // namespace ansor
