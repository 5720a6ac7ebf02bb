#include "search/autoschedule.h"

#include "measure/measurer.h"
#include "model/make_cost_model.h"
#include "search/tuner.h"
#include "sketch/sketch_generator.h"
#include "util/errors.h"
#include "util/target.h"

#include <cstdio>
#include <sstream>

namespace ansor {

namespace {

TunerOptions tuner_options(const Options &o) {
    TunerOptions t;
    t.trials = o.trials;
    t.measures_per_round = o.measures_per_round;
    t.epsilon = o.epsilon;
    t.evolution.population = o.population;
    t.evolution.generations = o.generations;
    t.evolution.mutation_probability = o.mutation_probability;
    t.evolution.crossover_share = o.crossover_share;
    t.seed = o.seed;
    SearchPolicy policy = o.search == "random" ? SearchPolicy::Random
                        : o.search == "model"  ? SearchPolicy::Model
                                               : SearchPolicy::Evolution;
    return with_policy(t, policy);
}

void print_progress(const TuningProgress &p, double flops) {
    std::fprintf(stderr, "[ansor] trial %d/%d (round %d)  failures %d  best ", p.trials_done, p.trials_total, p.round,
                 p.failures);
    if (p.best_ms > 0) {
        std::fprintf(stderr, "%.4f ms", p.best_ms);
        if (flops > 0) std::fprintf(stderr, " (%.1f GFLOP/s)", flops / (p.best_ms * 1e6));
    } else {
        std::fprintf(stderr, "-");
    }
    std::fprintf(stderr, "  elapsed %.0f s  left ~%.0f s\n", p.elapsed_s, p.left_s);
}

}  // namespace

AutoscheduleResult autoschedule(const std::vector<Halide::Internal::Function> &outputs, const Halide::Target &target,
                                int parallelism, const Options &options) {
    if (target.has_gpu_feature()) {
        throw UserError("target " + target.to_string() + " has a GPU feature; the Ansor plugin schedules CPU targets only so far");
    }
    PipelineDAG dag(outputs, parallelism);
    SketchContext ctx{dag, target};
    std::vector<State> sketches = generate_sketches(ctx);

    AnnotationOptions ao;
    ao.parallelism = dag.parallelism();
    ao.max_innermost_factor = options.max_innermost_factor;
    ao.auto_unroll_steps.clear();
    for (int s : {0, 16, 64, 512}) {
        if (s <= options.auto_unroll_max_step) ao.auto_unroll_steps.push_back(s);
    }
    RandomAnnotator annotator(dag, target, ao);

    AutoscheduleResult result;
    std::optional<State> chosen;
    if (options.trials > 0) {
        MeasureOptions mo;
        mo.target = measurement_target(target);
        mo.threads = dag.parallelism();
        mo.timeout_s = options.timeout_s;
        mo.repeats = options.repeats;
        mo.tolerance = options.tolerance;
        ForkMeasurer measurer(dag, mo);
        if (options.progress) {
            std::fprintf(stderr, "[ansor] %zu Funcs, %zu sketches, reference (all at root) %.4f ms; measuring %d programs\n",
                         dag.nodes().size(), sketches.size(), measurer.reference().min_ms, options.trials);
        }
        ProgramSampler sampler(sketches, annotator);
        std::unique_ptr<CostModel> model = make_cost_model(options.cost_model, dag, options.seed);
        Tuner tuner(sampler, annotator, ao, measurer, *model, tuner_options(options));
        tuner.on_progress = [&](const TuningProgress &p) {
            if (options.progress) print_progress(p, dag.flop_count());
        };
        TuningOutcome outcome = tuner.run();
        if (options.verbose) {
            for (const auto &t : outcome.trials) {
                std::fprintf(stderr, "[ansor] %s %.4f ms %s\n%s", t.result.ok ? "ok" : "FAILED", t.result.min_ms,
                             t.result.error.c_str(), t.state.source().c_str());
            }
        }
        result.trials = (int)outcome.trials.size();
        result.failures = outcome.failures;
        if (outcome.best) {
            chosen = outcome.best;
            result.measured = true;
            result.best_ms = outcome.best_result.min_ms;
        } else if (!outcome.trials.empty()) {
            std::fprintf(stderr, "[ansor] warning: none of %d candidates ran correctly (first error: %s); "
                                 "falling back to computing every Func at root\n",
                         result.trials, outcome.trials[0].result.error.c_str());
        }
    } else {
        std::mt19937_64 rng(options.seed);
        chosen = ProgramSampler(sketches, annotator).sample(rng);
    }
    if (!chosen) {
        // Every Func at root: always legal, and what the reference computes.
        State root(dag);
        for (size_t i = 0; i < dag.nodes().size(); i++) add_compute_root(root, (int)i);
        chosen = root;
    }
    chosen->apply(dag.env());
    std::ostringstream src;
    src << "// Ansor: ";
    if (result.measured) {
        src << "best of " << result.trials << " measured programs, " << result.best_ms << " ms";
    } else {
        src << "unmeasured schedule";
    }
    src << "\n" << chosen->source();
    result.schedule_source = src.str();
    return result;
}

}  // namespace ansor
