#include "options/options.h"

#include "util/errors.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <sstream>
#include <thread>
#include <vector>

extern char **environ;

namespace ansor {

namespace {

const std::string prefix = "HL_ANSOR_";

int64_t parse_int(const std::string &name, const std::string &v, int64_t lo, int64_t hi) {
    char *end = nullptr;
    long long x = std::strtoll(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || x < lo || x > hi) {
        throw UserError(name + "='" + v + "' is not an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    }
    return x;
}

double parse_double(const std::string &name, const std::string &v, double lo, double hi) {
    char *end = nullptr;
    double x = std::strtod(v.c_str(), &end);
    if (v.empty() || *end != '\0' || !(x >= lo && x <= hi)) {
        std::ostringstream s;
        s << name << "='" << v << "' is not a number in [" << lo << ", " << hi << "]";
        throw UserError(s.str());
    }
    return x;
}

bool parse_bool(const std::string &name, const std::string &v) {
    if (v == "1" || v == "true" || v == "yes") return true;
    if (v == "0" || v == "false" || v == "no") return false;
    throw UserError(name + "='" + v + "' is not a boolean (use 1/0, true/false or yes/no)");
}

// `v` must be the choice_name of one of `choices`.
template <typename Choice>
Choice parse_choice(const std::string &name, const std::string &v, std::initializer_list<Choice> choices) {
    std::string list;
    for (Choice c : choices) {
        if (v == choice_name(c)) return c;
        list += (list.empty() ? "" : ", ") + std::string(choice_name(c));
    }
    throw UserError(name + "='" + v + "' is not one of: " + list);
}

using Setter = std::function<void(Options &, const std::string &name, const std::string &value)>;

const std::map<std::string, Setter> &setters() {
    static const std::map<std::string, Setter> s = {
        {"HL_ANSOR_TRIALS", [](Options &o, auto &n, auto &v) { o.trials = (int)parse_int(n, v, 0, 1000000); }},
        {"HL_ANSOR_SEED", [](Options &o, auto &n, auto &v) { o.seed = (uint64_t)parse_int(n, v, 0, INT64_MAX); }},
        {"HL_ANSOR_TIMEOUT", [](Options &o, auto &n, auto &v) { o.timeout_s = parse_double(n, v, 0.1, 86400); }},
        {"HL_ANSOR_BUILDERS", [](Options &o, auto &n, auto &v) { o.builders = (int)parse_int(n, v, 1, 256); }},
        {"HL_ANSOR_MEMORY_LIMIT", [](Options &o, auto &n, auto &v) { o.memory_limit = parse_memory_size(n, v); }},
        {"HL_ANSOR_ALLOW_ROOT_FALLBACK", [](Options &o, auto &n, auto &v) { o.allow_root_fallback = parse_bool(n, v); }},
        {"HL_ANSOR_REPEATS", [](Options &o, auto &n, auto &v) { o.repeats = (int)parse_int(n, v, 1, 10000); }},
        {"HL_ANSOR_MEASURE_SECONDS", [](Options &o, auto &n, auto &v) { o.measure_seconds = parse_double(n, v, 0, 60); }},
        {"HL_ANSOR_TIMING", [](Options &o, auto &n, auto &v) {
             if (v != "in-tuner" && v != "fresh-process") {
                 throw UserError(n + "='" + v + "' is not one of: in-tuner, fresh-process");
             }
             o.fresh_process_timing = v == "fresh-process";
         }},
        {"HL_ANSOR_TOLERANCE", [](Options &o, auto &n, auto &v) { o.tolerance = parse_double(n, v, 0, 1); }},
        {"HL_ANSOR_MAX_INNERMOST_FACTOR", [](Options &o, auto &n, auto &v) { o.max_innermost_factor = parse_int(n, v, 1, 4096); }},
        {"HL_ANSOR_MAX_REDUCTION_FACTOR", [](Options &o, auto &n, auto &v) { o.max_reduction_factor = parse_int(n, v, 1, 65536); }},
        {"HL_ANSOR_MAX_CONSUMER_TILE", [](Options &o, auto &n, auto &v) { o.max_consumer_tile = parse_int(n, v, 1, 65536); }},
        {"HL_ANSOR_VECTOR_TILE_BIAS", [](Options &o, auto &n, auto &v) { o.vector_tile_bias = parse_double(n, v, 0, 1); }},
        {"HL_ANSOR_AUTO_UNROLL_MAX_STEP", [](Options &o, auto &n, auto &v) { o.auto_unroll_max_step = (int)parse_int(n, v, 0, 4096); }},
        {"HL_ANSOR_VERBOSE", [](Options &o, auto &n, auto &v) { o.verbose = parse_bool(n, v); }},
        {"HL_ANSOR_PROGRESS", [](Options &o, auto &n, auto &v) { o.progress = parse_bool(n, v); }},
        {"HL_ANSOR_SEARCH", [](Options &o, auto &n, auto &v) { o.search = parse_choice(n, v, {SearchPolicy::Random, SearchPolicy::Model, SearchPolicy::Evolution}); }},
        {"HL_ANSOR_COST_MODEL", [](Options &o, auto &n, auto &v) { o.cost_model = parse_choice(n, v, {CostModelKind::XGBoost, CostModelKind::Random}); }},
        {"HL_ANSOR_MODEL_OBJECTIVE", [](Options &o, auto &n, auto &v) { o.model_objective = parse_choice(n, v, {ModelObjective::Square, ModelObjective::Pairwise, ModelObjective::LambdaRank}); }},
        {"HL_ANSOR_MEASURES_PER_ROUND", [](Options &o, auto &n, auto &v) { o.measures_per_round = (int)parse_int(n, v, 1, 10000); }},
        {"HL_ANSOR_EPSILON", [](Options &o, auto &n, auto &v) { o.epsilon = parse_double(n, v, 0, 1); }},
        {"HL_ANSOR_POPULATION", [](Options &o, auto &n, auto &v) { 
            o.population = (int)parse_int(n, v, 2, 1000000);
            o.population_given = true;
        }},
        {"HL_ANSOR_GENERATIONS", [](Options &o, auto &n, auto &v) { o.generations = (int)parse_int(n, v, 0, 1000); }},
        {"HL_ANSOR_MUTATION_PROB", [](Options &o, auto &n, auto &v) { o.mutation_probability = parse_double(n, v, 0, 1); }},
        {"HL_ANSOR_CROSSOVER", [](Options &o, auto &n, auto &v) { o.crossover_share = parse_double(n, v, 0, 1); }},
        {"HL_ANSOR_STRUCTURE_SHARE", [](Options &o, auto &n, auto &v) { o.structure_share = parse_double(n, v, 0, 1); }},
        {"HL_ANSOR_FIRST_STRUCTURE_SHARE", [](Options &o, auto &n, auto &v) { o.first_structure_share = parse_double(n, v, 0, 1); }},
        {"HL_ANSOR_SKETCH_COVERAGE", [](Options &o, auto &n, auto &v) { o.sketch_coverage_share = parse_double(n, v, 0, 1); }},
        {"HL_ANSOR_LOG", [](Options &o, auto &n, auto &v) {
             if (v.empty()) throw UserError(n + " is empty; give the path of a tuning log");
             o.log = v;
         }},
        {"HL_ANSOR_MODEL", [](Options &o, auto &n, auto &v) {
             if (v.empty()) throw UserError(n + " is empty; give the path of a cost model file, or none");
             o.model = v;
         }},
        {"HL_ANSOR_JUDGE_MODEL", [](Options &o, auto &n, auto &v) {
             if (v.empty()) throw UserError(n + " is empty; give the path of a cost model file, or none");
             o.judge_model = v;
         }},
        {"HL_ANSOR_PRETRAIN", [](Options &o, auto &n, auto &v) {
             if (v.empty()) throw UserError(n + " is empty; give the path of a pretraining set");
             o.pretrain = v;
         }},
        {"HL_ANSOR_RUNNER", [](Options &o, auto &n, auto &v) {
             if (v.empty()) throw UserError(n + " is empty; give the path of ansor_runner");
             o.runner = v;
         }},
    };
    return s;
}

// Old names still read, each with the name that replaced it.
const std::map<std::string, std::string> &renamed_options() {
    static const std::map<std::string, std::string> r = {{"HL_ANSOR_GPU_RUNNER", "HL_ANSOR_RUNNER"}};
    return r;
}

}  // namespace

const char *choice_name(SearchPolicy p) {
    switch (p) {
    case SearchPolicy::Random: return "random";
    case SearchPolicy::Model: return "model";
    case SearchPolicy::Evolution: return "evolution";
    }
    return "?";
}

const char *choice_name(CostModelKind k) { return k == CostModelKind::Random ? "random" : "xgboost"; }

const char *choice_name(ModelObjective o) {
    switch (o) {
    case ModelObjective::Square: return "square";
    case ModelObjective::Pairwise: return "pairwise";
    case ModelObjective::LambdaRank: return "lambdarank";
    }
    return "?";
}

const std::vector<std::pair<std::string, std::string>> &Options::documentation_in_order() {
    // The README's option table is generated from this list (a unit test in
    // test_options.cpp checks it and writes the table to paste).
    static const std::vector<std::pair<std::string, std::string>> d = {
        {"HL_ANSOR_TRIALS", "programs to measure (default 64; 0 = measure nothing: apply the log's best record with HL_ANSOR_LOG, else the program the judge model (HL_ANSOR_JUDGE_MODEL) chooses among the cost model's best after evolving a population under it, of those that compile within 20 s (zero-shot; docs/cost_model.md), else one random program, said on stderr; with trials, the first round measures the zero-shot program)"},
        {"HL_ANSOR_SEED", "random seed of the search (default 0)"},
        {"HL_ANSOR_TIMEOUT", "seconds one candidate may take to compile, and again to run, before it counts as hung (default 30)"},
        {"HL_ANSOR_BUILDERS", "candidates compiled at once, each in its own "
                              "process; the compiled ones are then timed "
                              "one at a time with no compile running (1 to 256; default: the machine's cores)"},
        {"HL_ANSOR_MEMORY_LIMIT", "address space each measuring process (the reference, every candidate) may map "
                                  "beyond what it inherits from the tuner: bytes, or a number with K, M, G or T "
                                  "(binary), e.g. 8G; 0 = no limit. A candidate that needs more fails and tuning "
                                  "goes on; docs/design.md, \"Sandbox\" (default: half the machine's RAM)"},
        {"HL_ANSOR_ALLOW_ROOT_FALLBACK", "1 to apply every Func at root, with a warning, when tuning measured "
                                         "candidates and none ran correctly (and the log has no best record); by "
                                         "default that build fails with the first candidates' errors (default 0)"},
        {"HL_ANSOR_REPEATS", "timed runs per candidate after one warm-up, at least (default 10)"},
        {"HL_ANSOR_MEASURE_SECONDS", "timing window: candidates are timed as RunGen times a built generator, in "
                                     "samples of back-to-back runs for half this many seconds (twice it at most), and "
                                     "the best sample's time per run is kept (default 0.2: RunGen's 0.1 s and 0.4 s)"},
        {"HL_ANSOR_TIMING", "where CPU candidates are timed: fresh-process (built as a shared object and run by "
                            "ansor_runner, a process of its own, as RunGen runs a built generator: the time the "
                            "user gets; default, except for pipelines with extern stages) or in-tuner (JIT-compiled "
                            "in a child forked from the tuner, whose heap is not a fresh process's; 6% faster)"},
        {"HL_ANSOR_TOLERANCE", "relative error allowed on float outputs against the reference (default 1e-3; raised for "
                               "float16/bfloat16 and large reductions; integers computed through float may be off by 1 "
                               "on 5% of elements: docs/correctness.md)"},
        {"HL_ANSOR_MAX_INNERMOST_FACTOR", "largest innermost tile size drawn for a space loop (default 64)"},
        {"HL_ANSOR_MAX_REDUCTION_FACTOR", "largest inner tile size drawn for a reduction loop: the cache block along "
                                          "the reduction, e.g. GEMM's K block (default 64)"},
        {"HL_ANSOR_MAX_CONSUMER_TILE", "largest tile size drawn along one loop of a consumer tile, the tile producers "
                                       "are computed in (default 512)"},
        {"HL_ANSOR_VECTOR_TILE_BIAS", "probability that the innermost space loop's tile sizes are drawn among those "
                                      "whose innermost factor is a multiple of the vector width (default 0.8; 0 = uniform)"},
        {"HL_ANSOR_AUTO_UNROLL_MAX_STEP", "largest auto-unroll step drawn from {0,16,64,512} (default 512)"},
        {"HL_ANSOR_VERBOSE", "1 to print every candidate's schedule, each Func the model cannot see with the reason, and each sketch's structure, to stderr (default 0)"},
        {"HL_ANSOR_PROGRESS", "0 to silence the progress lines on stderr (default 1)"},
        {"HL_ANSOR_SEARCH", "search policy: random (sample and measure), model (rank fresh samples with the cost model), "
                            "evolution (evolve samples and the best measured programs under the model; default)"},
        {"HL_ANSOR_COST_MODEL", "xgboost (default) or random (for ablations)"},
        {"HL_ANSOR_MODEL_OBJECTIVE", "what the XGBoost model is trained to fit: pairwise (the order of every two programs; "
                                     "default), lambdarank (the same pairs weighted towards the top of the ranking) or square (Ansor's "
                                     "throughput-weighted squared error); docs/cost_model.md"},
        {"HL_ANSOR_MEASURES_PER_ROUND", "programs measured between two retrainings of the model (default 16)"},
        {"HL_ANSOR_EPSILON", "share of each round given to fresh random programs (default 0.05)"},
        {"HL_ANSOR_POPULATION", "evolution's population size (default 2048; unset, it shrinks as 2048 x 12 / Funcs, at "
                                "least 256, for pipelines of more than 12 Funcs, whose candidates cost more to score)"},
        {"HL_ANSOR_GENERATIONS", "generations evolved per round (default 4)"},
        {"HL_ANSOR_MUTATION_PROB", "probability that a child not made by crossover is mutated (default 0.85)"},
        {"HL_ANSOR_CROSSOVER", "share of each generation made by node-based crossover; 0 disables it (default 0.2)"},
        {"HL_ANSOR_STRUCTURE_SHARE", "most of a round's model-picked programs that may share one structure (sketch and compute locations) while others are on offer; 1 lifts the cap (default 0.5)"},
        {"HL_ANSOR_FIRST_STRUCTURE_SHARE", "the same cap for the first round, while nothing of the pipeline has been measured (default 0.125: 2 programs of 16 per structure)"},
        {"HL_ANSOR_SKETCH_COVERAGE", "share of each round after the first given to the best predicted program of each sketch not measured yet; the first round gives them all its model-picked programs; 0 disables (default 0.25)"},
        {"HL_ANSOR_LOG", "JSON-lines tuning log: its records for this pipeline and target train the model and seed "
                         "the search, and every new measurement is appended (never overwritten). With "
                         "HL_ANSOR_TRIALS=0 the best record is applied as is (default: no log)"},
        {"HL_ANSOR_MODEL", "cost model file (ansor_train_model) the XGBoost model starts from: it ranks programs "
                           "before any measurement, fine-tunes on this pipeline's measurements, and with "
                           "HL_ANSOR_TRIALS=0 finds the finalists the judge chooses among (HL_ANSOR_JUDGE_MODEL); none = start untrained (default: "
                           "ansor_cost_model.gz beside libansor.so, if present)"},
        {"HL_ANSOR_JUDGE_MODEL", "cost model file that chooses the zero-shot program (HL_ANSOR_TRIALS=0, no log): "
                                 "the cost model's best program of each of its 8 best sketches are the finalists, "
                                 "and the one this model scores best is applied; none = the cost model's best "
                                 "(default: ansor_judge_model.gz beside libansor.so, if present)"},
        {"HL_ANSOR_PRETRAIN", "pretraining set (ansor_export_pretraining): featurised measured programs of other "
                              "pipelines that train the cost model before the first round, so that it ranks from "
                              "the start (default: none)"},
        {"HL_ANSOR_RUNNER", "path of ansor_runner, the process that runs candidates for measurement: CPU "
                            "programs under HL_ANSOR_TIMING=fresh-process, and GPU programs (docs/gpu.md; default: "
                            "beside libansor.so, else in the build tree). HL_ANSOR_GPU_RUNNER, its old name, is "
                            "still read, with a deprecation warning"},
    };
    return d;
}

const std::map<std::string, std::string> &Options::documentation() {
    static const std::map<std::string, std::string> d(documentation_in_order().begin(), documentation_in_order().end());
    return d;
}

int Options::default_builders() { return std::max(1, (int)std::thread::hardware_concurrency()); }

Options Options::from_map(const std::map<std::string, std::string> &vars) { return from_map(vars, std::cerr); }

Options Options::from_map(const std::map<std::string, std::string> &vars, std::ostream &warnings) {
    Options o;
    for (const auto &kv : vars) {
        if (kv.first.compare(0, prefix.size(), prefix) != 0) continue;
        std::string name = kv.first;
        if (auto renamed = renamed_options().find(name); renamed != renamed_options().end()) {
            const std::string &current = renamed->second;
            const bool both_set = vars.count(current) != 0;
            warnings << "[ansor] warning: " << name << " is deprecated; use " << current;
            if (both_set) warnings << " (both are set: " << current << " wins)";
            warnings << "\n";
            if (both_set) continue;
            name = current;
        }
        auto it = setters().find(name);
        if (it == setters().end()) {
            std::string known;
            for (const auto &s : setters()) known += " " + s.first;
            throw UserError("unknown option " + kv.first + "; the options are:" + known);
        }
        it->second(o, kv.first, kv.second);
    }
    return o;
}

Options Options::from_environment() {
    std::map<std::string, std::string> vars;
    for (char **e = environ; e && *e; e++) {
        std::string entry(*e);
        auto eq = entry.find('=');
        if (eq == std::string::npos) continue;
        vars[entry.substr(0, eq)] = entry.substr(eq + 1);
    }
    return from_map(vars);
}

}  // namespace ansor
