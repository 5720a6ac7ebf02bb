#include "harness_options.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ansor_harness {

namespace {

const char *const kUsage =
    "usage: ansor_benchmark_harness [--quick] [--apps all|none|NAME[:SIZE=V...],...] [--ops all|none|OP[:i|:small],...]\n"
    "           [--variants root,expert,Mullapudi2016,Li2018,Adams2019,Ansor,Ansor-cold,Ansor-model,oneDNN,OpenBLAS,Eigen]\n"
    "           [--trials N | --log TUNING_LOG] [--search random|model|evolution] [--model MODEL_FILE]\n"
    "           [--judge MODEL_FILE|none]\n"
    "           [--time-limit S] [--ansor-time-limit S] [--rounds R] [--samples S] [--timing fresh-process|in-worker]\n"
    "           [--threads N] [--tolerance T]\n"
    "           [--out DIR] [--resume] [--no-plot]\n"
    "           [--ansor libansor.so] [--halide-plugins DIR] [--vendor-bin DIR] [--target T]\n"
    "\n"
    "  --quick         a run that fits in 10 minutes: gmm and c2d at shape 0 and the unsharp_mask app, Ansor 8\n"
    "                  trials, peers limited to 60 s each, 3 rounds x 3 samples (options given explicitly win)\n"
    "  --apps, --ops   the cases (default: every app and every operator at shape 0)\n"
    "  --variants      which variants to build (default: all but Ansor-cold and Ansor-model; expert exists for\n"
    "                  apps only, the vendor libraries for matrix products and 2-D convolutions only);\n"
    "                  Ansor-cold is Ansor without the shipped cost model (HL_ANSOR_MODEL=none), Ansor-model\n"
    "                  Ansor starting from the model file --model names, both tuned in the same run\n"
    "  --model FILE    the cost model of the Ansor-model variant (HL_ANSOR_MODEL=FILE), to compare it with\n"
    "                  the shipped one in one run\n"
    "  --judge FILE    the Ansor-model variant's zero-shot judge (HL_ANSOR_JUDGE_MODEL=FILE; none: the\n"
    "                  cost model's own best program; default: the shipped judge)\n"
    "  --trials N      Ansor's trial budget per case (200); its measurements go to DIR/ansor_logs/CASE.jsonl\n"
    "                  (Ansor-cold's to CASE.cold.jsonl, Ansor-model's to CASE.model.jsonl);\n"
    "                  0: zero-shot, the shipped cost model's choice with nothing measured\n"
    "  --log FILE      no tuning: apply FILE's best record for each case (HL_ANSOR_TRIALS=0 HL_ANSOR_LOG=FILE)\n"
    "  --time-limit S  seconds one peer autoscheduler may take to schedule and compile a case (1200);\n"
    "                  over it the variant shows as TIMEOUT\n"
    "  --ansor-time-limit S   the same for Ansor (120 + 20 per trial)\n"
    "  --rounds R --samples S timing: R interleaved rounds of S samples per variant, median of all (5, 5)\n"
    "  --timing W      how a Halide variant's sample is taken: fresh-process (default: the variant built ahead\n"
    "                  of time and run by ansor_gpu_runner in a process of its own, RunGen's best sample per\n"
    "                  run) or in-worker (the JIT copy in its worker, the mean of 10 ms of runs)\n"
    "  --out DIR       results.csv, tuning_curves.csv, results.png, tuning_curves.png, schedules/,\n"
    "                  ansor_logs/ (default harness_results)\n"
    "  --resume        add to DIR/results.csv, skipping the cases it already holds\n";

[[noreturn]] void usage(const std::string &problem) {
    std::fprintf(stderr, "ansor_benchmark_harness: %s\n%s", problem.c_str(), kUsage);
    std::exit(2);
}

std::vector<std::string> split_commas(const std::string &s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    std::string item;
    while (std::getline(in, item, ',')) {
        if (!item.empty()) out.push_back(item);
    }
    return out;
}

double parse_double(const std::string &flag, const std::string &value, double lo) {
    char *end = nullptr;
    double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end || !(v >= lo)) usage(flag + " wants a number >= " + std::to_string(lo) + ", not \"" + value + "\"");
    return v;
}

int parse_int(const std::string &flag, const std::string &value, int lo) {
    char *end = nullptr;
    long v = std::strtol(value.c_str(), &end, 10);
    if (value.empty() || *end || v < lo || v > 1000000) usage(flag + " wants an integer >= " + std::to_string(lo) + ", not \"" + value + "\"");
    return (int)v;
}

}  // namespace

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
    std::string apps, ops, variants;
    std::set<std::string> given;
    for (int i = 1; i < argc; i++) {
        std::string flag = argv[i];
        if (flag == "--help" || flag == "-h") {
            std::printf("%s", kUsage);
            std::exit(0);
        }
        given.insert(flag);
        if (flag == "--quick") { o.quick = true; continue; }
        if (flag == "--resume") { o.resume = true; continue; }
        if (flag == "--no-plot") { o.plot = false; continue; }
        if (i + 1 >= argc) usage("missing value after " + flag);
        std::string value = argv[++i];
        if (flag == "--apps") apps = value;
        else if (flag == "--ops") ops = value;
        else if (flag == "--variants") variants = value;
        else if (flag == "--trials") o.trials = parse_int(flag, value, 0);
        else if (flag == "--log") o.ansor_log = value;
        else if (flag == "--model") o.ansor_model = value;
        else if (flag == "--judge") o.ansor_judge = value;
        else if (flag == "--search") {
            if (value != "random" && value != "model" && value != "evolution") usage("--search: unknown policy \"" + value + "\"");
            o.search = value;
        } else if (flag == "--time-limit") o.time_limit_s = parse_double(flag, value, 1);
        else if (flag == "--ansor-time-limit") o.ansor_time_limit_s = parse_double(flag, value, 1);
        else if (flag == "--rounds") o.rounds = parse_int(flag, value, 1);
        else if (flag == "--samples") o.samples = parse_int(flag, value, 1);
        else if (flag == "--threads") o.threads = parse_int(flag, value, 1);
        else if (flag == "--timing") {
            if (value != "fresh-process" && value != "in-worker") usage("--timing: fresh-process or in-worker, not \"" + value + "\"");
            o.timing = value;
        }
        else if (flag == "--tolerance") o.tolerance = parse_double(flag, value, 0);
        else if (flag == "--out") o.out_dir = value;
        else if (flag == "--ansor") o.ansor_plugin = value;
        else if (flag == "--halide-plugins") o.halide_plugins = value;
        else if (flag == "--vendor-bin") o.vendor_bin = value;
        else if (flag == "--target") o.target = value;
        else usage("unknown option " + flag);
    }
    if (given.count("--trials") && given.count("--log")) usage("give --trials or --log, not both");
    if (given.count("--log") && !std::ifstream(o.ansor_log).good()) usage("--log " + o.ansor_log + ": cannot read it");
    if (given.count("--model") && !std::ifstream(o.ansor_model).good()) usage("--model " + o.ansor_model + ": cannot read it");
    if (given.count("--judge") && o.ansor_judge != "none" && !std::ifstream(o.ansor_judge).good()) {
        usage("--judge " + o.ansor_judge + ": cannot read it");
    }
    if (o.quick) {
        // Options given explicitly keep their values.
        if (!given.count("--apps")) apps = apps_available() ? "unsharp_mask" : "none";
        if (!given.count("--ops")) ops = "gmm,c2d";
        if (!given.count("--trials")) o.trials = 8;
        if (!given.count("--time-limit")) o.time_limit_s = 60;
        if (!given.count("--rounds")) o.rounds = 3;
        if (!given.count("--samples")) o.samples = 3;
    }
    if (apps.empty()) apps = "all";
    if (ops.empty()) ops = "all";

    try {
        if (apps == "all") {
            for (const auto &name : app_names()) o.cases.push_back(app_case(name));
        } else if (apps != "none") {
            for (const auto &spec : split_commas(apps)) o.cases.push_back(app_case(spec));
        }
        if (ops == "all") {
            for (const auto &op : ansor_ops::operator_suite()) o.cases.push_back(op_case(op.name));
        } else if (ops != "none") {
            for (const auto &spec : split_commas(ops)) o.cases.push_back(op_case(spec));
        }
    } catch (const std::invalid_argument &e) {
        usage(e.what());
    }
    std::set<std::string> names;
    for (const auto &c : o.cases) {
        if (!names.insert(c.name).second) usage("case " + c.name + " is listed twice");
    }
    if (o.cases.empty()) usage("no cases: --apps none and --ops none");

    if (variants.empty()) {
        o.variants = default_variants();
    } else {
        std::set<std::string> wanted;
        for (const auto &v : split_commas(variants)) {
            bool known = false;
            for (const auto &k : all_variants()) known |= k == v;
            if (!known) usage("unknown variant \"" + v + "\"");
            wanted.insert(v);
        }
        // Table order, and root always: every check compares against it.
        wanted.insert("root");
        for (const auto &k : all_variants()) {
            if (wanted.count(k)) o.variants.push_back(k);
        }
    }
    const bool model_variant = std::count(o.variants.begin(), o.variants.end(), "Ansor-model") > 0;
    if (model_variant && o.ansor_model.empty()) usage("the Ansor-model variant needs --model FILE");
    if (!model_variant && !o.ansor_model.empty()) usage("--model is the Ansor-model variant's model; add it to --variants");
    if (!model_variant && !o.ansor_judge.empty()) usage("--judge is the Ansor-model variant's judge; add it to --variants");
    return o;
}

}  // namespace ansor_harness
