// How many programs per second the cost model's feature extraction gets
// through, single-threaded: random annotated programs of a 512^3 matmul and
// of a conv layer (3x3, 56x56, 64 -> 128 channels, zero padding, + bias,
// ReLU) are replayed into loop-nest models first; then extract() is timed
// over all of them, repeatedly, with one FeatureExtractor per pipeline.
//
//   ansor_feature_throughput [states=2000] [min_seconds=1] [dump=0]
//
// With dump=k > 0 it also prints, for the first k programs of each
// pipeline, the schedule and every statement's non-zero features.
#include "annotate/random_annotator.h"
#include "cli.h"
#include "features/program_features.h"
#include "sketch/sketch_generator.h"

#include "throughput_pipelines.h"

#include <Halide.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace Halide;

namespace {

const Target target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");
const int parallelism = 2;  // as apps/measure_throughput.cpp

void print_features(const ansor::LoopNest &m, const std::vector<ansor::StageFeatures> &fs) {
    const auto &names = ansor::feature_names();
    for (const auto &f : fs) {
        std::printf("  %s stage %d:", m.funcs()[f.func].name.c_str(), f.stage);
        for (size_t i = 0; i < names.size(); i++) {
            if (f.values[i] != 0) std::printf(" %s=%.4g", names[i].c_str(), f.values[i]);
        }
        std::printf("\n");
    }
}

void run(const char *name, const Func &out, int states, double min_seconds, int dump) {
    ansor::PipelineDAG dag({out.function()}, parallelism);
    std::vector<ansor::State> sketches = ansor::generate_sketches({dag, target});
    ansor::AnnotationOptions ao;
    ao.parallelism = parallelism;
    ansor::RandomAnnotator annotator(dag, target, ao);
    std::mt19937_64 rng(1);
    std::vector<ansor::LoopNest> models;
    std::vector<ansor::State> programs;
    int failed = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; (int)models.size() < states && i < 20 * states; i++) {
        try {
            ansor::State s = annotator.annotate(sketches[i % sketches.size()], rng);
            models.push_back(s.replay());
            if ((int)programs.size() < dump) programs.push_back(s);
        } catch (const ansor::InvalidState &) {
            failed++;
        }
    }
    double sample_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (models.empty()) {
        std::printf("%s: no program could be sampled\n", name);
        return;
    }

    ansor::FeatureExtractor fx(dag);
    std::vector<ansor::StageFeatures> out_features;
    for (size_t i = 0; i < programs.size(); i++) {
        std::printf("%s program %zu:\n%s", name, i, programs[i].source().c_str());
        fx.extract(models[i], out_features);
        print_features(models[i], out_features);
    }
    // A first pass fills the per-DAG-node caches (and is timed apart).
    t0 = std::chrono::steady_clock::now();
    size_t statements = 0;
    double checksum = 0;
    for (const auto &m : models) {
        fx.extract(m, out_features);
        statements += out_features.size();
    }
    double first_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    size_t done = 0;
    t0 = std::chrono::steady_clock::now();
    double seconds = 0;
    do {
        for (const auto &m : models) {
            fx.extract(m, out_features);
            // Keeps the work observable so the optimiser cannot drop it.
            for (const auto &f : out_features) checksum += f.values[ansor::features::kBufferBegin + ansor::features::kBytes];
        }
        done += models.size();
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    } while (seconds < min_seconds);

    std::printf("%s: %zu sketches, %zu programs sampled in %.2f s (%d annotations failed), %.2f statements "
                "per program, %d features each; first pass %.3f s (checksum %g)\n",
                name, sketches.size(), models.size(), sample_s, failed, (double)statements / models.size(),
                ansor::features::kCount, first_s, checksum);
    std::printf("%s states_per_second=%.0f\n", name, done / seconds);
}

}  // namespace

int main(int argc, char **argv) {
    int states = 2000, dump = 0;
    double min_seconds = 1.0;
    ansor_cli::Parser p("ansor_feature_throughput", "Programs per second through the cost model's feature extraction.");
    p.positional("states", &states, "random programs per pipeline, > 0").optional();
    p.positional("min_seconds", &min_seconds, "the least time extraction is timed for, >= 0").optional();
    p.positional("dump", &dump, "programs of each pipeline whose features are printed").optional();
    p.parse(argc, argv);
    if (states <= 0 || min_seconds < 0 || dump < 0) p.fail("needs states > 0, min_seconds >= 0 and dump >= 0");
    run("gemm_512", ansor_apps::throughput_matmul(512), states, min_seconds, dump);
    run("conv_56x56_64to128_3x3", ansor_apps::throughput_conv(56, 64, 128), states, min_seconds, dump);
    return 0;
}
