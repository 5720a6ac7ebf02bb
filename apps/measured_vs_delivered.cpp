// What the tuner measures against what the user gets: for each case (a
// registered generator and its params) the program Ansor chose is timed in
// the tuner's measurement path and, built by GenGen, by RunGen, side by side.
//
//   ansor_measured_vs_delivered [--trials 16] [--rounds 5] [--dir DIR] [--plugin libansor.so]
//                               [--case GENERATOR:K=V,K=V]...
//
// Per case:
//   1. GenGen with the plugin tunes the generator (HL_ANSOR_TRIALS=--trials,
//      HL_ANSOR_LOG=DIR/<case>.log; a log already there is resumed, so
//      --trials 0 applies its best) and builds it as a static library;
//   2. the library is linked with Halide's RunGenMain.cpp;
//   3. --rounds times, alternately: the log's best program measured as the
//      search measures (the session's settings and measurer, HL_ANSOR_TIMING
//      included; 2 threads), and
//      RunGen --benchmarks=all on random inputs of the estimated sizes;
//   4. one table row: the log's time (from the tuning), the medians over
//      rounds of the tuner's time and of RunGen's, and RunGen / tuner.
// The rounds alternate because this machine is shared: load comes and goes,
// and both times pay for it alike only if they are taken together.
// Without --case: softmax 1024x768, a depthwise-separable block (56x56,
// 144 -> 32), GEMM 512^3 and a 3x3 conv (56x56, 64 -> 64).
#include "cli.h"
#include "dag/pipeline_dag.h"
#include "network/generator_pipeline.h"
#include "measure/make_measurer.h"
#include "measure/measurer.h"
#include "options/options.h"
#include "records/tuning_log.h"
#include "search/session_settings.h"
#include "util/errors.h"
#include "util/target.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

const char *const kTarget = ansor::project_cpu_target();
constexpr int kParallelism = 2;  // the benchmarks' MachineParams
const char *const kMachineParams = "machine_params=2,33554432,40";

struct Case {
    std::string generator;
    ansor::GeneratorParamValues params;
    std::string name() const {
        std::string s = generator;
        for (const auto &[k, v] : params) s += "_" + k + v;
        return s;
    }
};

struct Args {
    int trials = 16;
    int rounds = 5;
    std::string dir = "measured_vs_delivered";
    std::string plugin = ANSOR_PLUGIN_PATH;
    std::vector<Case> cases;
};

Case parse_case(const ansor_cli::Parser &p, const std::string &text) {
    Case c;
    auto colon = text.find(':');
    c.generator = text.substr(0, colon);
    if (c.generator.empty()) p.fail("--case needs a generator name: " + text);
    if (colon == std::string::npos) return c;
    std::stringstream rest(text.substr(colon + 1));
    std::string kv;
    while (std::getline(rest, kv, ',')) {
        auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0) p.fail("--case params are K=V separated by commas: " + text);
        c.params[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    return c;
}

Args parse(int argc, char **argv) {
    Args a;
    std::vector<std::string> cases;
    ansor_cli::Parser p("ansor_measured_vs_delivered",
                        "The tuner's time for its chosen program against the same program built by GenGen and run by RunGen.");
    p.option("--trials", &a.trials, "trials of the tuner per case, >= 0");
    p.option("--rounds", &a.rounds, "interleaved rounds of timing, >= 1");
    p.option("--dir", &a.dir, "the working directory", "DIR");
    p.option("--plugin", &a.plugin, "the Ansor plugin", "SO");
    p.option("--case", &cases, "a generator and its parameters (default: four cases of the suite)", "GENERATOR:K=V,K=V").whole();
    p.parse(argc, argv);
    if (a.trials < 0 || a.trials > 1000000) p.fail("--trials takes an integer >= 0");
    if (a.rounds < 1 || a.rounds > 1000000) p.fail("--rounds takes an integer >= 1");
    if (cases.empty()) {
        cases = {"softmax:N=1024,D=768", "depthwise_separable_conv:N=1,H=56,W=56,CI=144,CO=32", "gmm:N=512,M=512,K=512",
                 "conv2d_bias_act:H=56,W=56,CI=64,CO=64"};
    }
    for (const std::string &c : cases) a.cases.push_back(parse_case(p, c));
    return a;
}

// Runs a shell command; its stdout and stderr, and whether it exited 0.
std::pair<bool, std::string> shell(const std::string &command) {
    std::string out;
    FILE *p = popen((command + " 2>&1").c_str(), "r");
    if (!p) return {false, "cannot start: " + command};
    std::array<char, 4096> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
    int status = pclose(p);
    return {status == 0, out};
}

std::string quote(const std::string &s) { return "'" + s + "'"; }

// The GenGen binary that registers `generator` (it lists them when run bare).
std::string generator_binary(const std::string &generator) {
    for (const char *binary : {ANSOR_OPERATORS_GENERATOR, ANSOR_APPS_GENERATOR}) {
        std::stringstream listing(shell(quote(binary)).second);
        std::string line;
        while (std::getline(listing, line)) {
            line.erase(0, line.find_first_not_of(' '));
            if (line == generator) return binary;
        }
    }
    throw ansor::UserError("no generator binary registers '" + generator + "'");
}

// Steps 1 and 2: tune (or apply the log), build, link with RunGen. Returns the RunGen binary.
std::string build_with_rungen(const Args &a, const Case &c, const std::string &log) {
    std::string out = a.dir + "/" + c.name();
    std::filesystem::create_directories(out);
    // -t 0: no time limit. GenGen stops a generator after 15 minutes by
    // default, and tuning camera_pipe for 236 trials takes longer.
    std::string gen = quote(generator_binary(c.generator)) + " -g " + c.generator + " -o " + quote(out) + " -t 0" +
                      " -e static_library,h,registration target=" + kTarget + " -p " + quote(a.plugin) +
                      " -s Ansor auto_schedule=true " + kMachineParams;
    for (const auto &[k, v] : c.params) gen += " " + k + "=" + v;
    auto built = shell("HL_ANSOR_PROGRESS=0 HL_ANSOR_TRIALS=" + std::to_string(a.trials) +
                       " HL_ANSOR_LOG=" + quote(log) + " " + gen);
    if (!built.first) throw ansor::UserError("GenGen failed for " + c.name() + ":\n" + built.second);
    std::string rungen = out + "/" + c.generator + ".rungen";
    auto linked = shell("c++ -std=c++17 -O2 -DHALIDE_NO_PNG -DHALIDE_NO_JPEG -I" HALIDE_INCLUDE_DIR
                        " -I" HALIDE_TOOLS_DIR " -I" + quote(out) + " " HALIDE_TOOLS_DIR "/RunGenMain.cpp " +
                        quote(out + "/" + c.generator + ".registration.cpp") + " " +
                        quote(out + "/" + c.generator + ".a") + " -ldl -lpthread -o " + quote(rungen));
    if (!linked.first) throw ansor::UserError("linking RunGen failed for " + c.name() + ":\n" + linked.second);
    return rungen;
}

// RunGen's "best case" in ms, or a negative number if it failed.
double rungen_ms(const std::string &rungen) {
    auto r = shell(quote(rungen) + " --default_input_buffers=random:0:auto --default_input_scalars "
                                   "--estimate_all --benchmarks=all --parsable_output");
    auto at = r.second.find("BEST_TIME_MSEC_PER_ITER");
    if (!r.first || at == std::string::npos) {
        std::fprintf(stderr, "RunGen failed: %s\n", r.second.c_str());
        return -1;
    }
    return std::atof(r.second.c_str() + at + std::strlen("BEST_TIME_MSEC_PER_ITER"));
}

double median(std::vector<double> v) {
    if (v.empty()) return NAN;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// One table row: the case, the log's time, the tuner's and RunGen's medians, their ratio.
std::string run_case(const Args &a, const Case &c) {
    std::string log = a.dir + "/" + c.name() + ".log";
    std::string rungen = build_with_rungen(a, c, log);

    Halide::Target target(kTarget);
    auto built = ansor::build_generator_pipeline(c.generator, c.params, target);
    ansor::PipelineDAG dag(built.outputs(), kParallelism);
    auto best = ansor::TuningLog(log).best(dag, target);
    if (!best || !best->state) throw ansor::UserError("no successful program in " + log + " for " + c.name());
    ansor::SessionSettings settings = ansor::session_settings(ansor::Options::from_environment(), dag, target);
    settings.measure.threads = kParallelism;
    // As the session measures: HL_ANSOR_TIMING picks the measurer.
    std::unique_ptr<ansor::Measurer> measurer = ansor::make_measurer(dag, settings.measure, {}).measurer;

    std::vector<double> tuner, delivered;
    for (int r = 0; r < a.rounds; r++) {
        ansor::MeasureResult m = measurer->measure({*best->state})[0];
        if (m.ok) tuner.push_back(m.min_ms);
        else std::fprintf(stderr, "%s: the tuner's measurement failed: %s\n", c.name().c_str(), m.error.c_str());
        double d = rungen_ms(rungen);
        if (d > 0) delivered.push_back(d);
        std::printf("  %-44s round %d  tuner %.4f ms  rungen %.4f ms\n", c.name().c_str(), r + 1,
                    m.ok ? m.min_ms : NAN, d);
        std::fflush(stdout);
    }
    double t = median(tuner), d = median(delivered);
    char row[256];
    std::snprintf(row, sizeof(row), "%-46s %8.4f %10.4f %10.4f %8.2f\n", c.name().c_str(), best->min_ms, t, d, d / t);
    return row;
}

}  // namespace

int main(int argc, char **argv) {
    Args a = parse(argc, argv);
    std::filesystem::create_directories(a.dir);
    std::printf("target %s, %d threads, %d trials, %d interleaved rounds\n", kTarget, kParallelism, a.trials,
                a.rounds);
    std::fflush(stdout);
    std::string table;
    int failed = 0;
    for (const Case &c : a.cases) {
        try {
            table += run_case(a, c);
        } catch (const std::exception &e) {
            std::fprintf(stderr, "%s: %s\n", c.name().c_str(), e.what());
            failed++;
        }
    }
    std::printf("\n%-46s %8s %10s %10s %8s\n%s", "case", "log_ms", "tuner_ms", "rungen_ms", "ratio", table.c_str());
    return failed ? 1 : 0;
}
