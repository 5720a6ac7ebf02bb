#include "harness_options.h"

#include "cli.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ansor_harness {

const std::vector<std::string> &all_variants() {
    static const std::vector<std::string> v = {"root",       "expert", "Mullapudi2016", "Li2018", "Adams2019",
                                               "Ansor",      "Ansor-cold", "Ansor-model", "oneDNN",   "OpenBLAS",
                                               "Eigen"};
    return v;
}

const std::vector<std::string> &default_variants() {
    static const std::vector<std::string> v = [] {
        std::vector<std::string> d;
        for (const auto &k : all_variants()) {
            if (k != "Ansor-cold" && k != "Ansor-model") d.push_back(k);
        }
        return d;
    }();
    return v;
}

bool is_ansor_variant(const std::string &v) { return v == "Ansor" || v == "Ansor-cold" || v == "Ansor-model"; }

std::string scheduler_of(const std::string &variant) { return is_ansor_variant(variant) ? "Ansor" : variant; }

std::string ansor_variant_suffix(const std::string &variant) {
    if (variant == "Ansor-cold") return "cold";
    if (variant == "Ansor-model") return "model";
    return "";
}

std::string ansor_model_of(const std::string &variant, const HarnessOptions &o) {
    if (variant == "Ansor-cold") return "none";
    if (variant == "Ansor-model") return o.ansor_model;
    return "";
}

std::string ansor_judge_of(const std::string &variant, const HarnessOptions &o) {
    return variant == "Ansor-model" ? o.ansor_judge : "";
}

bool is_vendor_variant(const std::string &v) { return v == "oneDNN" || v == "OpenBLAS" || v == "Eigen"; }

bool is_autoscheduler_variant(const std::string &v) {
    return v == "Mullapudi2016" || v == "Li2018" || v == "Adams2019" || is_ansor_variant(v);
}

HarnessOptions parse_harness_options(int argc, char **argv) {
    HarnessOptions o;
    std::vector<std::string> apps, ops, variants;
    bool no_plot = false;
    ansor_cli::Parser p("ansor_benchmark_harness", "Ranks Ansor against its peers, expert schedules and vendor libraries.");
    p.option("--quick", &o.quick, "a run that fits in 10 minutes: gmm and c2d at shape 0 and the unsharp_mask app, Ansor 8\n"
             "                             trials, peers limited to 60 s each, 3 rounds x 3 samples (options given explicitly win)");
    p.option("--apps", &apps, "the app cases (default: every app)", "all|none|NAME[:SIZE=V...],...");
    p.option("--ops", &ops, "the operator cases (default: every operator at shape 0)", "all|none|OP[:i|:small],...");
    p.option("--variants", &variants,
             "which variants to build (default: all but Ansor-cold and Ansor-model; expert exists for\n"
             "                             apps only, the vendor libraries for matrix products and 2-D convolutions only);\n"
             "                             Ansor-cold is Ansor without the shipped cost model (HL_ANSOR_MODEL=none), Ansor-model\n"
             "                             Ansor starting from the model file --model names, both tuned in the same run",
             "root,expert,Mullapudi2016,Li2018,Adams2019,Ansor,Ansor-cold,Ansor-model,oneDNN,OpenBLAS,Eigen");
    p.option("--trials", &o.trials, "Ansor's trial budget per case; its measurements go to DIR/ansor_logs/CASE.jsonl\n"
             "                             (Ansor-cold's to CASE.cold.jsonl, Ansor-model's to CASE.model.jsonl);\n"
             "                             0: zero-shot, the shipped cost model's choice with nothing measured");
    p.option("--log", &o.ansor_log, "no tuning: apply FILE's best record for each case (HL_ANSOR_TRIALS=0 HL_ANSOR_LOG=FILE)",
             "TUNING_LOG");
    p.option("--search", &o.search, "Ansor's search (HL_ANSOR_SEARCH)", "random|model|evolution");
    p.option("--model", &o.ansor_model, "the cost model of the Ansor-model variant (HL_ANSOR_MODEL=FILE), to compare it with\n"
             "                             the shipped one in one run", "MODEL_FILE");
    p.option("--judge", &o.ansor_judge, "the Ansor-model variant's zero-shot judge (HL_ANSOR_JUDGE_MODEL=FILE; none: the\n"
             "                             cost model's own best program; default: the shipped judge)", "MODEL_FILE|none");
    p.option("--time-limit", &o.time_limit_s, "seconds one peer autoscheduler may take to schedule and compile a case;\n"
             "                             over it the variant shows as TIMEOUT", "S");
    p.option("--ansor-time-limit", &o.ansor_time_limit_s, "the same for Ansor (default 120 + 20 per trial)", "S");
    p.option("--rounds", &o.rounds, "timing: interleaved rounds per variant", "R");
    p.option("--samples", &o.samples, "timing: samples per round; the median of all", "S");
    p.option("--timing", &o.timing, "how a Halide variant's sample is taken: fresh-process (the variant built ahead\n"
             "                             of time and run by ansor_runner in a process of its own, RunGen's best sample per\n"
             "                             run) or in-worker (the JIT copy in its worker, the mean of 10 ms of runs)",
             "fresh-process|in-worker");
    p.option("--threads", &o.threads, "threads of every variant");
    p.option("--tolerance", &o.tolerance, "the largest relative error of an output", "T");
    p.option("--out", &o.out_dir, "results.csv, tuning_curves.csv, results.png, tuning_curves.png, schedules/, ansor_logs/",
             "DIR");
    p.option("--resume", &o.resume, "add to DIR/results.csv, skipping the cases it already holds");
    p.option("--no-plot", &no_plot, "draws no plots");
    p.option("--ansor", &o.ansor_plugin, "the Ansor plugin", "libansor.so");
    p.option("--halide-plugins", &o.halide_plugins, "the directory of Halide's autoscheduler plugins", "DIR");
    p.option("--vendor-bin", &o.vendor_bin, "the directory of the vendor benchmarks", "DIR");
    p.option("--target", &o.target, "the Halide target", "T");
    p.parse(argc, argv);
    o.plot = !no_plot;
    auto at_least = [&](const char *flag, double v, double lo) {
        if (!(v >= lo) || v > 1e6) p.fail(std::string(flag) + " wants a number >= " + std::to_string(lo));
    };
    at_least("--trials", o.trials, 0);
    at_least("--rounds", o.rounds, 1);
    at_least("--samples", o.samples, 1);
    at_least("--threads", o.threads, 1);
    if (p.given("--time-limit")) at_least("--time-limit", o.time_limit_s, 1);
    if (p.given("--ansor-time-limit")) at_least("--ansor-time-limit", o.ansor_time_limit_s, 1);
    if (!(o.tolerance >= 0)) p.fail("--tolerance wants a number >= 0");
    if (p.given("--search") && o.search != "random" && o.search != "model" && o.search != "evolution")
        p.fail("--search: unknown policy \"" + o.search + "\"");
    if (o.timing != "fresh-process" && o.timing != "in-worker") p.fail("--timing: fresh-process or in-worker, not \"" + o.timing + "\"");
    if (p.given("--trials") && p.given("--log")) p.fail("give --trials or --log, not both");
    if (p.given("--log") && !std::ifstream(o.ansor_log).good()) p.fail("--log " + o.ansor_log + ": cannot read it");
    if (p.given("--model") && !std::ifstream(o.ansor_model).good()) p.fail("--model " + o.ansor_model + ": cannot read it");
    if (p.given("--judge") && o.ansor_judge != "none" && !std::ifstream(o.ansor_judge).good()) {
        p.fail("--judge " + o.ansor_judge + ": cannot read it");
    }
    if (o.quick) {
        // Options given explicitly keep their values.
        if (!p.given("--apps")) apps = {apps_available() ? "unsharp_mask" : "none"};
        if (!p.given("--ops")) ops = {"gmm", "c2d"};
        if (!p.given("--trials")) o.trials = 8;
        if (!p.given("--time-limit")) o.time_limit_s = 60;
        if (!p.given("--rounds")) o.rounds = 3;
        if (!p.given("--samples")) o.samples = 3;
    }
    const std::vector<std::string> all = {"all"}, none = {"none"};
    if (apps.empty()) apps = all;
    if (ops.empty()) ops = all;

    try {
        if (apps == all) {
            for (const auto &name : app_names()) o.cases.push_back(app_case(name));
        } else if (apps != none) {
            for (const auto &spec : apps) o.cases.push_back(app_case(spec));
        }
        if (ops == all) {
            for (const auto &op : ansor_ops::operator_suite()) o.cases.push_back(op_case(op.name));
        } else if (ops != none) {
            for (const auto &spec : ops) o.cases.push_back(op_case(spec));
        }
    } catch (const std::invalid_argument &e) {
        p.fail(e.what());
    }
    std::set<std::string> names;
    for (const auto &c : o.cases) {
        if (!names.insert(c.name).second) p.fail("case " + c.name + " is listed twice");
    }
    if (o.cases.empty()) p.fail("no cases: --apps none and --ops none");

    if (variants.empty()) {
        o.variants = default_variants();
    } else {
        std::set<std::string> wanted;
        for (const auto &v : variants) {
            bool known = false;
            for (const auto &k : all_variants()) known |= k == v;
            if (!known) p.fail("unknown variant \"" + v + "\"");
            wanted.insert(v);
        }
        // Table order, and root always: every check compares against it.
        wanted.insert("root");
        for (const auto &k : all_variants()) {
            if (wanted.count(k)) o.variants.push_back(k);
        }
    }
    const bool model_variant = std::count(o.variants.begin(), o.variants.end(), "Ansor-model") > 0;
    if (model_variant && o.ansor_model.empty()) p.fail("the Ansor-model variant needs --model FILE");
    if (!model_variant && !o.ansor_model.empty()) p.fail("--model is the Ansor-model variant's model; add it to --variants");
    if (!model_variant && !o.ansor_judge.empty()) p.fail("--judge is the Ansor-model variant's judge; add it to --variants");
    return o;
}

}  // namespace ansor_harness
