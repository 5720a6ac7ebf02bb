// The benchmark harness: for each app (apps/app_pipelines/) and each operator
// of generators/, every variant — unscheduled (every Func at root), the
// hand-written expert schedule, Mullapudi2016, Li2018, Adams2019, Ansor, and
// for matrix products and convolutions oneDNN, OpenBLAS and Eigen — checked
// against the unscheduled pipeline and timed in interleaved rounds in one
// run. Prints a table per case and a summary, writes a CSV, and plots it.
// Usage: --help, or docs/user_guide.md.
//
// Every variant runs in its own worker process (case_runner.h): a crash, a
// hang or an autoscheduler over its time limit marks that variant FAILED or
// TIMEOUT and the run goes on.
#include "case_runner.h"
#include "fma_peak.h"
#include "harness_options.h"
#include "results.h"
#include "util/target.h"

#include <Halide.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace ansor_harness;

namespace {

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string executable_dir() {
    std::error_code ec;
    fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string(".") : self.parent_path().string();
}

std::string plugin_file(const HarnessOptions &o, const std::string &variant) {
    const std::string scheduler = scheduler_of(variant);
    if (scheduler == "Ansor") return o.ansor_plugin;
    std::string lower;
    for (char c : scheduler) lower += (char)std::tolower((unsigned char)c);
    return o.halide_plugins + "/libautoschedule_" + lower + ".so";
}

// Rough seconds per variant on the project's 2-core machine (typical, and
// the bound if every autoscheduler runs to its limit).
void estimate_seconds(const HarnessOptions &o, double &typical, double &bound) {
    typical = bound = 0;
    for (const BenchCase &c : o.cases) {
        for (const std::string &v : variants_for(c, o)) {
            double t = 10, b = 10;  // root, expert, vendor libraries: build, compile, check
            if (v == "Mullapudi2016" || v == "Li2018") t = 20, b = o.time_limit_s;
            if (v == "Adams2019") t = std::min(o.time_limit_s, 300.0), b = o.time_limit_s;
            if (is_ansor_variant(v)) {
                t = o.ansor_log.empty() ? 20 + 6.0 * o.trials : 15;
                b = o.ansor_log.empty() ? o.ansor_limit() : 15;
            }
            // A fresh-process sample: the runner's start, its inputs and 0.1-0.4 s of sampling.
            const double timing = o.rounds * (o.samples * (o.timing == "fresh-process" ? 0.5 : 0.05) + 0.2);
            typical += t + timing;
            bound += b + timing;
        }
    }
}

}  // namespace

int main(int argc, char **argv) {
    // A worker that dies mid-answer must not take the harness with it.
    signal(SIGPIPE, SIG_IGN);
    HarnessOptions o = parse_harness_options(argc, argv);
    if (o.ansor_plugin.empty()) o.ansor_plugin = ANSOR_PLUGIN_PATH;
    if (o.halide_plugins.empty()) o.halide_plugins = "/usr/lib/x86_64-linux-gnu/halide14";
    if (o.vendor_bin.empty()) o.vendor_bin = executable_dir();
    if (o.scripts_dir.empty()) o.scripts_dir = ANSOR_SOURCE_DIR "/scripts";
    if (o.target.empty()) o.target = ansor::project_cpu_target();
    try {
        // Every variant is built for the target and run here.
        const std::string why = ansor::why_this_cpu_cannot_run(Halide::Target(o.target));
        if (!why.empty()) {
            std::fprintf(stderr, "ansor_benchmark_harness: --target %s: %s; name one this machine runs (%s is)\n",
                         o.target.c_str(), why.c_str(), ansor::project_cpu_target());
            return 2;
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "ansor_benchmark_harness: --target %s: %s\n", o.target.c_str(), e.what());
        return 2;
    }

    const std::string csv_path = o.out_dir + "/results.csv";
    const std::string curves_path = o.out_dir + "/tuning_curves.csv";
    std::unique_ptr<ResultsCsv> csv;
    try {
        fs::create_directories(o.out_dir + "/schedules");
        fs::create_directories(o.out_dir + "/ansor_logs");
        csv = std::make_unique<ResultsCsv>(csv_path, o.resume);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "ansor_benchmark_harness: %s\n", e.what());
        return 2;
    }
    const bool curves_exist = fs::exists(curves_path) && o.resume;
    std::ofstream curves(curves_path, curves_exist ? std::ios::app : std::ios::trunc);
    if (!curves_exist) curves << "case,source,trial,ok,ms,best_ms\n";

    // The same thread count for everything: Halide's runtime in the workers
    // reads HL_NUM_THREADS; Ansor's measurements and the peers' machine
    // params get o.threads; the vendor workers get OMP/OpenBLAS variables.
    setenv("HL_NUM_THREADS", std::to_string(o.threads).c_str(), 1);

    CaseContext ctx{o, {}};
    for (const std::string &v : o.variants) {
        if (!is_autoscheduler_variant(v)) continue;
        try {
            Halide::load_plugin(plugin_file(o, v));
        } catch (const std::exception &e) {
            ctx.plugin_errors[v] = plugin_file(o, v) + ": " + e.what();
            std::fprintf(stderr, "[harness] warning: %s will show as FAILED: %s\n", v.c_str(), ctx.plugin_errors[v].c_str());
        }
    }

    // The ceiling for "% peak": measured before any worker starts, with the
    // thread count every variant gets.
    const FmaPeak peak = measure_fma_peak(o.threads);

    double typical = 0, bound = 0;
    estimate_seconds(o, typical, bound);
    std::printf("ansor_benchmark_harness: %zu cases, variants %s", o.cases.size(), o.variants[0].c_str());
    for (size_t i = 1; i < o.variants.size(); i++) std::printf(",%s", o.variants[i].c_str());
    std::printf("\n  target %s, %d threads for every variant\n", o.target.c_str(), o.threads);
    if (o.ansor_log.empty() && o.trials == 0) std::printf("  Ansor: zero-shot (the cost model's choice, nothing measured)\n");
    else if (o.ansor_log.empty()) std::printf("  Ansor: %d trials per case%s%s\n", o.trials, o.search.empty() ? "" : ", search ", o.search.c_str());
    else std::printf("  Ansor: the best record of %s (no tuning)\n", o.ansor_log.c_str());
    std::printf("  timing: median of %d interleaved rounds x %d samples; outputs checked against root (tolerance %g)\n",
                o.rounds, o.samples, o.tolerance);
    std::printf("  Halide variants: %s\n", o.timing == "fresh-process"
                                               ? "each sample a fresh process running the program built ahead of time"
                                               : "timed in their JIT worker (--timing in-worker)");
    if (peak.gflops > 0) {
        std::printf("  machine peak: %.1f GFLOP/s (fp32 FMA kernel, %d-lane vectors, %d threads)\n", peak.gflops,
                    peak.vector_lanes, peak.threads);
    }
    std::printf("  peer autoschedulers limited to %.0f s each, Ansor to %.0f s\n", o.time_limit_s, o.ansor_limit());
    std::printf("  expected time: about %.0f min (at most ~%.0f min if every autoscheduler runs to its limit)\n",
                typical / 60, bound / 60);
    std::printf("  results: %s\n", o.out_dir.c_str());
    std::fflush(stdout);

    const double start = now_s();
    for (const BenchCase &c : o.cases) {
        if (csv->done(c.name)) {
            std::fprintf(stderr, "[harness] %s: already in %s\n", c.name.c_str(), csv_path.c_str());
            continue;
        }
        CaseRun run = run_case(c, ctx);
        print_case(run.result, peak.gflops, stdout);
        csv->append(run.result);
        for (const TuningCurve &curve : run.curves) {
            for (const auto &row : curve.rows) curves << "\"" << c.name << "\"," << curve.source << "," << row << "\n";
        }
        curves.flush();
    }

    std::vector<CaseResult> all = ResultsCsv::read(csv_path);
    print_summary(all, o.variants, stdout);
    std::printf("\nwall time of this run: %.1f min\n", (now_s() - start) / 60);
    std::printf("CSV: %s\ntuning curves: %s\n", csv_path.c_str(), curves_path.c_str());
    std::fflush(stdout);
    if (o.plot) {
        std::string command = "/usr/bin/python3 '" + o.scripts_dir + "/plot_harness.py' '" + csv_path + "' '" + o.out_dir +
                              "/results.png' --curves '" + curves_path + "' '" + o.out_dir + "/tuning_curves.png'";
        if (std::system(command.c_str()) != 0) {
            std::fprintf(stderr, "[harness] warning: plotting failed (needs python3-matplotlib): %s\n", command.c_str());
        }
    }
    return 0;
}
