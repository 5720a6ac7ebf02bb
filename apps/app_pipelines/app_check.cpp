// Checks every app's expert schedule against the all-root reference on the
// same random inputs, at the default sizes, and times both (median of a few
// interleaved samples, so drift on a shared machine hits both alike).
//
//   ansor_app_check [--apps matmul,unsharp_mask] [--threads 2] [--profile 1]
//
// --profile 1 compiles the expert variant with Halide's profiler, which
// prints the time spent in each Func when the program exits.
//
// The full comparison with the autoschedulers is the benchmark harness's job
// (docs/apps.md); this is the quick check used while writing schedules.
#include "app_pipelines.h"
#include "dag/pipeline_dag.h"
#include "measure/pipeline_runner.h"
#include "util/target.h"

#include <Halide.h>
#include <halide_benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

using namespace Halide;

namespace {

const char *const kTarget = "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41";

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

std::unique_ptr<Variant> build(const std::string &name, bool expert, const Target &target) {
    auto v = std::make_unique<Variant>();
    v->app = ansor_apps::build_app_pipeline(name, expert, target);
    std::vector<Internal::Function> outputs;
    for (const Func &f : v->app.pipeline.outputs()) outputs.push_back(f.function());
    v->dag = std::make_unique<ansor::PipelineDAG>(outputs, 2);
    if (expert) v->runner = std::make_unique<ansor::PipelineRunner>(*v->dag, v->app.pipeline, target);
    else v->runner = std::make_unique<ansor::PipelineRunner>(*v->dag, nullptr, target);
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

std::vector<std::string> split_commas(const std::string &s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    std::string item;
    while (std::getline(in, item, ',')) {
        if (!item.empty()) out.push_back(item);
    }
    return out;
}

}  // namespace

int main(int argc, char **argv) {
    std::vector<std::string> names;
    for (const auto &a : ansor_apps::app_list()) names.push_back(a.name);
    std::string threads = "2";
    bool profile = false;
    for (int i = 1; i < argc; i++) {
        std::string flag = argv[i];
        if (i + 1 >= argc) {
            std::fprintf(stderr, "missing value after %s\nusage: ansor_app_check [--apps a,b] [--threads N] [--profile 1]\n", argv[i]);
            return 2;
        }
        if (flag == "--apps") names = split_commas(argv[++i]);
        else if (flag == "--threads") threads = argv[++i];
        else if (flag == "--profile") profile = std::string(argv[++i]) == "1";
        else {
            std::fprintf(stderr, "unknown option %s\nusage: ansor_app_check [--apps a,b] [--threads N] [--profile 1]\n", argv[i]);
            return 2;
        }
    }
    setenv("HL_NUM_THREADS", threads.c_str(), 1);
    Target target = ansor::measurement_target(Target(kTarget));
    int failures = 0;
    std::printf("%-26s %10s %10s %8s %9s %10s %s\n", "app", "root ms", "expert ms", "speedup", "GFLOP/s", "max error",
                "expert compile s");
    for (const std::string &name : names) {
        const ansor_apps::AppInfo *info = nullptr;
        try {
            info = &ansor_apps::find_app(name);
            if (!info->has_expert_schedule) {
                std::printf("%-26s (no expert schedule)\n", name.c_str());
                continue;
            }
            auto reference = build(name, false, target);
            auto expert = build(name, true, profile ? target.with_feature(Target::Profile) : target);
            double error = 0;
            for (size_t i = 0; i < reference->runner->outputs().size(); i++) {
                error = std::max(error, ansor::max_relative_error(expert->runner->outputs()[i],
                                                                  reference->runner->outputs()[i].data()));
            }
            for (int round = 0; round < 5; round++) {
                reference->samples_ms.push_back(sample_ms(*reference->runner));
                expert->samples_ms.push_back(sample_ms(*expert->runner));
            }
            double r = median(reference->samples_ms), e = median(expert->samples_ms);
            bool wrong = !(error <= 1e-4);
            failures += wrong;
            std::printf("%-26s %10.3f %10.3f %8.2f %9.1f %10.2e %.1f%s\n", name.c_str(), r, e, r / e,
                        info->flops > 0 ? info->flops / (e * 1e6) : 0.0, error, expert->compile_s,
                        wrong ? "  WRONG OUTPUT" : "");
        } catch (const std::exception &ex) {
            failures++;
            std::printf("%-26s FAILED: %s\n", name.c_str(), ex.what());
        }
        std::fflush(stdout);
    }
    return failures ? 1 : 0;
}
