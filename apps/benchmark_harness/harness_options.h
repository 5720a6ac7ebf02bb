#pragma once
// The harness's command line (the usage text is in harness_options.cpp and
// docs/user_guide.md). Parsing checks everything it can before any work
// starts: unknown options, cases, variants and malformed numbers are errors
// that name the culprit.
#include "bench_case.h"

#include <string>
#include <vector>

namespace ansor_harness {

// Every variant the harness knows, in table order.
const std::vector<std::string> &all_variants();
// The variants a run builds when --variants is not given: all but Ansor-cold
// and Ansor-model.
const std::vector<std::string> &default_variants();
bool is_vendor_variant(const std::string &v);
bool is_autoscheduler_variant(const std::string &v);  // Mullapudi2016, Li2018, Adams2019, the Ansor variants
// Ansor; Ansor-cold: the same plugin with HL_ANSOR_MODEL=none (no shipped
// model: a random first round, then a model of the pipeline's own
// measurements); Ansor-model: the same plugin starting from --model's file.
// Both tune in the same run as Ansor, so their ratios are comparable.
bool is_ansor_variant(const std::string &v);
// The autoscheduler a variant runs under ("Ansor" for every Ansor variant).
std::string scheduler_of(const std::string &variant);
// What an Ansor variant's log and curve names carry: "" (Ansor), "cold", "model".
std::string ansor_variant_suffix(const std::string &variant);

struct HarnessOptions {
    std::vector<BenchCase> cases;
    std::vector<std::string> variants;
    bool quick = false;
    int trials = 200;        // Ansor's budget per case (HL_ANSOR_TRIALS)
    std::string ansor_log;   // --log: apply this log's best record (HL_ANSOR_TRIALS=0)
    std::string ansor_model; // --model: the Ansor-model variant's cost model (HL_ANSOR_MODEL)
    std::string ansor_judge; // --judge: the Ansor-model variant's zero-shot judge (HL_ANSOR_JUDGE_MODEL)
    std::string search;      // HL_ANSOR_SEARCH; empty: the plugin's default
    double time_limit_s = 1200;     // per peer autoscheduler (schedule + compile)
    double ansor_time_limit_s = 0;  // 0: 120 s + 20 s per trial
    int rounds = 5, samples = 5;    // timing: rounds x samples per round, median over all
    // Halide variants: "fresh-process" (each sample a process of its own that
    // runs the variant built ahead of time, as RunGen does) or "in-worker"
    // (the JIT copy in the variant's forked worker).
    std::string timing = "fresh-process";
    int threads = 2;
    double tolerance = 1e-3;
    std::string out_dir = "harness_results";
    bool resume = false;
    bool plot = true;
    std::string ansor_plugin, halide_plugins, vendor_bin, scripts_dir, target;

    double ansor_limit() const { return ansor_time_limit_s > 0 ? ansor_time_limit_s : 120.0 + 20.0 * trials; }
};

// HL_ANSOR_MODEL for an Ansor variant: "" (the shipped model), "none" for
// Ansor-cold, --model's file for Ansor-model.
std::string ansor_model_of(const std::string &variant, const HarnessOptions &o);
// The HL_ANSOR_JUDGE_MODEL an Ansor variant runs with ("": the plugin's default).
std::string ansor_judge_of(const std::string &variant, const HarnessOptions &o);

// Exits with status 2 and the usage text on a bad command line.
HarnessOptions parse_harness_options(int argc, char **argv);

}  // namespace ansor_harness
