// Checks every app's expert schedule against the all-root reference on the
// same random inputs, at the default sizes, and times both (median of a few
// interleaved samples, so drift on a shared machine hits both alike).
//
//   ansor_app_check [--apps matmul,unsharp_mask] [--threads 2] [--profile 1]
//                   [--peer Adams2019 [--halide-plugins DIR]] [--fresh-pages 1]
//   ansor_app_check --list 1     (Funcs and stages of each app, nothing run)
//
// --profile 1 compiles the expert variant with Halide's profiler, which
// prints the time spent in each Func when the program exits. --peer adds
// the unscheduled pipeline scheduled by one of Halide's autoschedulers
// (loaded from DIR, Debian's by default), checked and timed the same way.
//
// Memory: glibc maps every block over 32 MB afresh (and may give freed heap
// memory back), so a schedule storing large intermediates pays page faults
// on every run, and on some VMs (this one: ~27 us a 4 KB page) that
// dominates the all-root reference. By default this tool keeps freed memory
// in the process (M_MMAP_MAX 0, no trimming), so runs after the first reuse
// their pages; --fresh-pages 1 keeps glibc's defaults.
//
// The full comparison with the autoschedulers is the benchmark harness's job
// (docs/apps.md); this is the quick check used while writing schedules.
#include "cli.h"
#include "app_pipelines.h"
#include "dag/pipeline_dag.h"
#include "measure/output_check.h"
#include "options/options.h"
#include "measure/pipeline_runner.h"
#include "util/target.h"

#include <Halide.h>
#include <halide_benchmark.h>

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

using namespace Halide;

namespace {

const char *const kTarget = ansor::project_cpu_target();

struct Variant {
    ansor_apps::AppPipeline app;
    std::unique_ptr<ansor::PipelineDAG> dag;
    std::unique_ptr<ansor::PipelineRunner> runner;
    std::vector<double> samples_ms;
    double compile_s = 0;
};

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The all-root reference (expert false, no autoscheduler), the expert
// schedule, or the unscheduled pipeline scheduled by `autoscheduler`.
std::unique_ptr<Variant> build(const std::string &name, bool expert, const Target &target,
                               const std::string &autoscheduler = "") {
    auto v = std::make_unique<Variant>();
    v->app = ansor_apps::build_app_pipeline(name, expert, target);
    std::vector<Internal::Function> outputs;
    for (const Func &f : v->app.pipeline.outputs()) outputs.push_back(f.function());
    // Analysed before any scheduling: the DAG reads the algorithm and estimates.
    v->dag = std::make_unique<ansor::PipelineDAG>(outputs, 2);
    if (!autoscheduler.empty()) {
        v->app.pipeline.auto_schedule(autoscheduler, target, MachineParams(2, 32 << 20, 40));
    }
    if (expert || !autoscheduler.empty()) {
        v->runner = std::make_unique<ansor::PipelineRunner>(*v->dag, v->app.pipeline, target);
    } else {
        v->runner = std::make_unique<ansor::PipelineRunner>(*v->dag, nullptr, target);
    }
    double t0 = now_s();
    v->runner->compile();
    v->compile_s = now_s() - t0;
    v->runner->run();
    return v;
}

double sample_ms(ansor::PipelineRunner &r) {
    double t0 = now_s();
    r.run();
    double once = now_s() - t0;
    int iterations = (int)std::max(1.0, std::min(100.0, 0.05 / std::max(once, 1e-6)));
    return Tools::benchmark(3, iterations, [&] { r.run(); }) * 1e3;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// One line per app: its Funcs and stages as PipelineDAG sees them, and
// how many Funcs it cannot model (data-dependent or unknown bounds).
int list_apps(const std::vector<std::string> &names, const Target &target) {
    std::printf("%-26s %6s %7s %11s  %s\n", "app", "funcs", "stages", "unmodelled", "sizes");
    for (const std::string &name : names) {
        const ansor_apps::AppInfo &info = ansor_apps::find_app(name);
        ansor_apps::AppPipeline app = ansor_apps::build_app_pipeline(name, false, target);
        std::vector<Internal::Function> outputs;
        for (const Func &f : app.pipeline.outputs()) outputs.push_back(f.function());
        ansor::PipelineDAG dag(outputs, 2);
        size_t stages = 0, unmodelled = 0;
        for (const auto &n : dag.nodes()) {
            stages += n.stages.size();
            unmodelled += !n.modelled;
        }
        std::string sizes;
        for (const auto &s : info.sizes) sizes += s.first + "=" + std::to_string(s.second) + " ";
        std::printf("%-26s %6zu %7zu %11zu  %s\n", name.c_str(), dag.nodes().size(), stages, unmodelled, sizes.c_str());
    }
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    std::vector<std::string> names;
    for (const auto &a : ansor_apps::app_list()) names.push_back(a.name);
    std::string threads = "2", peer, plugins = "/usr/lib/x86_64-linux-gnu/halide14";
    bool profile = false, fresh_pages = false, list = false;
    std::string profile_text, fresh_pages_text, list_text;
    ansor_cli::Parser p("ansor_app_check", "App pipelines timed unscheduled, with their expert schedule and a peer's, "
                                           "their outputs checked.");
    p.option("--apps", &names, "the apps", "a,b");
    p.option("--threads", &threads, "HL_NUM_THREADS", "N");
    p.option("--profile", &profile_text, "1: the expert schedules built with Halide's profiler", "1");
    p.option("--peer", &peer, "an autoscheduler also timed", "Adams2019|Mullapudi2016|Li2018");
    p.option("--halide-plugins", &plugins, "the directory of Halide's autoscheduler plugins", "DIR");
    p.option("--fresh-pages", &fresh_pages_text, "1: lets malloc return pages to the system", "1");
    p.option("--list", &list_text, "1: lists the apps instead", "1");
    p.parse(argc, argv);
    profile = profile_text == "1";
    fresh_pages = fresh_pages_text == "1";
    list = list_text == "1";
    setenv("HL_NUM_THREADS", threads.c_str(), 1);
    if (!fresh_pages) {
        mallopt(M_MMAP_MAX, 0);
        mallopt(M_TRIM_THRESHOLD, 1 << 30);  // int: the largest round value
    }
    if (!peer.empty()) {
        std::string lower;
        for (char ch : peer) lower += (char)std::tolower((unsigned char)ch);
        load_plugin(plugins + "/libautoschedule_" + lower + ".so");
    }
    Target target = ansor::measurement_target(Target(kTarget));
    if (list) return list_apps(names, target);
    int failures = 0;
    std::printf("%-26s %10s %10s %8s %9s %10s %9s", "app", "root ms", "expert ms", "speedup", "GFLOP/s", "max error",
                "compile s");
    if (!peer.empty()) std::printf(" %12s %10s %10s", (peer + " ms").c_str(), "max error", "schedule s");
    std::printf("\n");
    for (const std::string &name : names) {
        try {
            const ansor_apps::AppInfo &info = ansor_apps::find_app(name);
            auto reference = build(name, false, target);
            std::unique_ptr<Variant> expert, automatic;
            if (info.has_expert_schedule) {
                expert = build(name, true, profile ? target.with_feature(Target::Profile) : target);
            }
            double schedule_s = 0;
            if (!peer.empty()) {
                double t0 = now_s();
                automatic = build(name, false, target, peer);
                schedule_s = now_s() - t0 - automatic->compile_s;
            }
            // The measurer's comparison, at its default tolerance.
            auto compare = [&](Variant &v) {
                return ansor::compare_outputs(*reference->dag, v.runner->outputs(), reference->runner->outputs(),
                                              ansor::Options{}.tolerance);
            };
            for (int round = 0; round < 5; round++) {
                for (Variant *v : {reference.get(), expert.get(), automatic.get()}) {
                    if (v) v->samples_ms.push_back(sample_ms(*v->runner));
                }
            }
            double r = median(reference->samples_ms);
            std::printf("%-26s %10.3f", name.c_str(), r);
            if (expert) {
                const ansor::OutputComparison c = compare(*expert);
                double e = median(expert->samples_ms);
                bool wrong = !c.ok();
                failures += wrong;
                std::printf(" %10.3f %8.2f %9.1f %10.2e %9.1f%s", e, r / e, info.flops > 0 ? info.flops / (e * 1e6) : 0.0,
                            c.worst, expert->compile_s, wrong ? (" WRONG (" + c.detail + ")").c_str() : "");
            } else {
                std::printf(" %10s %8s %9s %10s %9s", "-", "-", "-", "-", "-");
            }
            if (automatic) {
                const ansor::OutputComparison c = compare(*automatic);
                bool wrong = !c.ok();
                failures += wrong;
                std::printf(" %12.3f %10.2e %10.1f%s", median(automatic->samples_ms), c.worst, schedule_s,
                            wrong ? (" WRONG (" + c.detail + ")").c_str() : "");
            }
            std::printf("\n");
        } catch (const std::exception &ex) {
            failures++;
            std::printf("%-26s FAILED: %s\n", name.c_str(), ex.what());
        }
        std::fflush(stdout);
    }
    return failures ? 1 : 0;
}
