// How many candidate programs the measurer gets through per minute on a
// 512^3 matmul: random programs from all sketches, each compiled and timed
// in a forked child (warm-up, repeats, output check), as the search does.
//
//   ansor_measure_throughput [candidates=30] [size=512] [--builders B] [--spread N]
//
// --builders: candidates compiled at once (default HL_ANSOR_BUILDERS, else
// the machine's cores). Besides candidates per minute it prints the mean
// compile and run phase of a candidate, from which the time of a round with
// B builders follows: about compile_total / B + run_total.
// --spread N: measures N of the programs that succeeded twice with one
// builder and twice with B, alternating, and prints how far the two passes
// of each setting disagree (median and largest |log2(t2 / t1)| of the
// programs' min times) and how far the settings' first passes disagree: more
// builders must not make the times noisier.
#include "search/session_settings.h"
#include "search/tuning_session.h"
#include "throughput_pipelines.h"
#include "util/errors.h"
#include "cli.h"
#include "util/target.h"

#include <Halide.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace Halide;

namespace {

struct Args {
    int candidates = 30, size = 512, builders = 0, spread = 0;
};

Args parse(int argc, char **argv) {
    Args a;
    ansor_cli::Parser p("ansor_measure_throughput", "Candidates measured per minute on a matmul.");
    p.positional("candidates", &a.candidates, "candidates measured, > 0").optional();
    p.positional("size", &a.size, "the matmul's size, > 0").optional();
    p.option("--builders", &a.builders, "parallel builders, 1..256 (0: HL_ANSOR_BUILDERS or the plugin's default)");
    p.option("--spread", &a.spread, "successful programs whose run-to-run spread is printed");
    p.parse(argc, argv);
    if (a.candidates <= 0 || a.size <= 0 || a.builders < 0 || a.builders > 256 || a.spread < 0) p.fail("bad value");
    return a;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// |log2(b / a)| of the min times, over the programs both measured fine.
std::vector<double> disagreement(const std::vector<ansor::MeasureResult> &a, const std::vector<ansor::MeasureResult> &b) {
    std::vector<double> d;
    for (size_t i = 0; i < a.size(); i++) {
        if (a[i].ok && b[i].ok) d.push_back(std::fabs(std::log2(b[i].min_ms / a[i].min_ms)));
    }
    return d;
}

void print_disagreement(const char *what, const std::vector<double> &d) {
    double largest = d.empty() ? 0 : *std::max_element(d.begin(), d.end());
    std::printf("%s: %zu programs, median |log2 ratio| %.4f, largest %.4f\n", what, d.size(), median(d), largest);
}

void print_spread(const ansor::PipelineDAG &dag, ansor::MeasureOptions measure, const std::vector<ansor::State> &programs) {
    const int builders = measure.builders;
    measure.builders = 1;
    ansor::ForkMeasurer one(dag, measure);
    measure.builders = builders;
    ansor::ForkMeasurer many(dag, measure);
    std::vector<ansor::MeasureResult> one_a = one.measure(programs), many_a = many.measure(programs);
    std::vector<ansor::MeasureResult> one_b = one.measure(programs), many_b = many.measure(programs);
    std::printf("spread over %zu programs, each measured twice per setting:\n", programs.size());
    print_disagreement("  1 builder, pass 1 vs 2", disagreement(one_a, one_b));
    std::string label = "  " + std::to_string(builders) + " builders, pass 1 vs 2";
    print_disagreement(label.c_str(), disagreement(many_a, many_b));
    label = "  1 vs " + std::to_string(builders) + " builders, first passes";
    print_disagreement(label.c_str(), disagreement(one_a, many_a));
}

}  // namespace

int main(int argc, char **argv) {
    Args args = parse(argc, argv);
    const int n = args.size;
    Func C = ansor_apps::throughput_matmul(n);

    const int parallelism = 2;
    Target target(ansor::project_cpu_target());
    ansor::PipelineDAG dag({C.function()}, parallelism);
    try {
        // The plugin's defaults and HL_ANSOR_BUILDERS; random sampling, so
        // that what is timed is measurement, not the search.
        ansor::Options options;
        options.builders = ansor::Options::from_environment().builders;
        if (args.builders > 0) options.builders = args.builders;
        options.search = ansor::SearchPolicy::Random;
        options.cost_model = ansor::CostModelKind::Random;
        options.trials = args.candidates;
        options.seed = 1;
        options.progress = false;
        ansor::SessionSettings settings = ansor::session_settings(options, dag, target);
        ansor::TuningSession session(dag, target, settings);

        auto t0 = std::chrono::steady_clock::now();
        session.tune();
        const ansor::TuningOutcome &out = session.outcome();
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        double compile_total = 0, run_total = 0;
        std::vector<ansor::State> succeeded;
        for (const auto &t : out.trials) {
            compile_total += t.result.compile.seconds();
            run_total += t.result.run.seconds();
            if (t.result.ok && (int)succeeded.size() < args.spread) succeeded.push_back(t.state);
        }
        const double count = (double)out.trials.size();
        double flops = 2.0 * n * n * n;
        std::printf("matmul %d^3, %d builders: %zu candidates in %.1f s (%d failed), best %.3f ms (%.1f GFLOP/s)\n", n,
                    options.builders, out.trials.size(), seconds, out.failures, out.best_result.min_ms,
                    flops / (out.best_result.min_ms * 1e6));
        std::printf("candidates_per_minute=%.1f\n", count * 60.0 / seconds);
        std::printf("per candidate: compile %.2f s, run %.2f s (warm-up, check, timed runs, exit)\n",
                    compile_total / count, run_total / count);
        std::printf("compile_total=%.1f s run_total=%.1f s; with B builders a round takes about "
                    "compile_total / B + run_total\n",
                    compile_total, run_total);
        for (size_t i = 0; i < out.trials.size(); i++) {
            const ansor::MeasureResult &r = out.trials[i].result;
            if (!r.ok) std::printf("failed: candidate %zu: %.120s\n", i, r.error.c_str());
        }
        if (args.spread > 0) print_spread(dag, settings.measure, succeeded);
    } catch (const ansor::UserError &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
