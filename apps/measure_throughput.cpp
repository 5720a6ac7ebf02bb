// How many candidate programs the measurer gets through per minute on a
// 512^3 matmul: random programs from all sketches, each compiled and timed
// in a forked child (warm-up, repeats, output check), as the search does.
//
//   ansor_measure_throughput [candidates=30] [size=512]
#include "search/tuning_session.h"

#include <Halide.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace Halide;

int main(int argc, char **argv) {
    int candidates = argc > 1 ? std::atoi(argv[1]) : 30;
    int n = argc > 2 ? std::atoi(argv[2]) : 512;
    if (candidates <= 0 || n <= 0) {
        std::fprintf(stderr, "usage: %s [candidates > 0] [size > 0]\n", argv[0]);
        return 2;
    }
    ImageParam A(Float(32), 2, "A"), B(Float(32), 2, "B");
    A.dim(0).set_estimate(0, n).dim(1).set_estimate(0, n);
    B.dim(0).set_estimate(0, n).dim(1).set_estimate(0, n);
    Var x("x"), y("y");
    RDom k(0, n, "k");
    Func C("matmul");
    C(x, y) = 0.f;
    C(x, y) += A(k, y) * B(x, k);
    C.set_estimate(x, 0, n).set_estimate(y, 0, n);

    const int parallelism = 2;
    Target target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");
    ansor::PipelineDAG dag({C.function()}, parallelism);
    // Random sampling: what is timed is measurement, not the search.
    ansor::Options options;  // the plugin's defaults
    options.search = ansor::SearchPolicy::Random;
    options.cost_model = ansor::CostModelKind::Random;
    options.trials = candidates;
    options.seed = 1;
    options.progress = false;
    ansor::TuningSession session(dag, target, options);

    auto t0 = std::chrono::steady_clock::now();
    session.tune();
    const ansor::TuningOutcome &out = session.outcome();
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double flops = 2.0 * n * n * n;
    std::printf("matmul %d^3: %zu candidates in %.1f s (%d failed), best %.3f ms (%.1f GFLOP/s)\n", n, out.trials.size(),
                seconds, out.failures, out.best_result.min_ms, flops / (out.best_result.min_ms * 1e6));
    std::printf("candidates_per_minute=%.1f\n", out.trials.size() * 60.0 / seconds);
    return 0;
}
