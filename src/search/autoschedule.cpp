#include "search/autoschedule.h"

#include "measure/measurer.h"
#include "model/make_cost_model.h"
#include "records/pretraining_set.h"
#include "records/tuning_log.h"
#include "search/tuner.h"
#include "sketch/sketch_generator.h"
#include "util/errors.h"
#include "util/target.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace ansor {

namespace {

// Scoring a candidate costs about linearly in the pipeline's Funcs (replay,
// footprints, features), so the default population shrinks past 12 Funcs
// to keep a round's search time near a small pipeline's (an 87-Func local
// Laplacian would otherwise spend minutes per round before measuring
// anything). A population the user sets is kept as it is.
int population_for(const Options &o, size_t funcs) {
    if (o.population_given || funcs <= 12) return o.population;
    return std::max(256, (int)(o.population * 12 / funcs));
}

TunerOptions tuner_options(const Options &o, size_t funcs) {
    TunerOptions t;
    t.trials = o.trials;
    t.measures_per_round = o.measures_per_round;
    t.epsilon = o.epsilon;
    t.evolution.population = population_for(o, funcs);
    t.evolution.generations = o.generations;
    t.evolution.mutation_probability = o.mutation_probability;
    t.evolution.crossover_share = o.crossover_share;
    t.evolution.max_structure_share = o.structure_share;
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

AnnotationOptions annotation_options(const Options &options, int parallelism) {
    AnnotationOptions ao;
    ao.parallelism = parallelism;
    ao.max_innermost_factor = options.max_innermost_factor;
    ao.max_reduction_factor = options.max_reduction_factor;
    ao.vector_tile_bias = options.vector_tile_bias;
    ao.auto_unroll_steps.clear();
    for (int s : {0, 16, 64, 512}) {
        if (s <= options.auto_unroll_max_step) ao.auto_unroll_steps.push_back(s);
    }
    return ao;
}

AutoscheduleResult autoschedule(const std::vector<Halide::Internal::Function> &outputs, const Halide::Target &target,
                                int parallelism, const Options &options) {
    if (target.has_gpu_feature()) {
        throw UserError("target " + target.to_string() + " has a GPU feature; the Ansor plugin schedules CPU targets only so far");
    }
    PipelineDAG dag(outputs, parallelism);
    SketchContext ctx{dag, target};
    std::vector<State> sketches = generate_sketches(ctx);

    AnnotationOptions ao = annotation_options(options, dag.parallelism());
    RandomAnnotator annotator(dag, target, ao);

    AutoscheduleResult result;
    std::optional<State> chosen;
    std::optional<TuningLog> log;
    std::optional<PipelineKey> key;
    std::vector<TuningRecord> history;
    if (!options.log.empty()) {
        log.emplace(options.log);
        key = make_pipeline_key(dag);
        history = log->load(dag, *key, target);
        if (options.progress) {
            std::fprintf(stderr, "[ansor] log %s: %zu records for pipeline %s on this target\n", options.log.c_str(),
                         history.size(), key->hash.c_str());
        }
    }
    if (options.trials > 0) {
        MeasureOptions mo;
        mo.target = measurement_target(target);
        mo.threads = dag.parallelism();
        mo.timeout_s = options.timeout_s;
        mo.repeats = options.repeats;
        mo.measure_seconds = options.measure_seconds;
        mo.tolerance = options.tolerance;
        ForkMeasurer measurer(dag, mo);
        if (options.progress) {
            std::fprintf(stderr, "[ansor] %zu Funcs, %zu sketches, reference (all at root) %.4f ms; measuring %d programs (%s search",
                         dag.nodes().size(), sketches.size(), measurer.reference().min_ms, options.trials,
                         options.search.c_str());
            if (options.search == "evolution") std::fprintf(stderr, ", population %d", population_for(options, dag.nodes().size()));
            std::fprintf(stderr, ")\n");
        }
        ProgramSampler sampler(sketches, annotator);
        std::unique_ptr<CostModel> model = make_cost_model(options.cost_model, dag, options.seed, options.model_objective);
        if (!options.pretrain.empty()) {
            if (!key) key = make_pipeline_key(dag);
            PretrainingSummary s = model->pretrain(read_pretraining_set(options.pretrain), {key->hash},
                                                   target.to_string(), options.pretrain);
            if (options.progress) {
                std::fprintf(stderr, "[ansor] cost model pretrained on %zu programs of %zu other pipelines from %s\n",
                             s.programs, s.pipelines, options.pretrain.c_str());
            }
        }
        Tuner tuner(sampler, annotator, ao, measurer, *model, tuner_options(options, dag.nodes().size()));
        std::vector<TrialRecord> earlier;
        for (const auto &r : history) {
            MeasureResult m;
            m.ok = r.ok;
            m.error = r.error;
            m.min_ms = r.min_ms;
            m.median_ms = r.median_ms;
            m.seconds = r.seconds;
            earlier.push_back({*r.state, m});
        }
        tuner.add_history(earlier);
        int64_t trial = (int64_t)history.size();
        tuner.on_measured = [&](const TrialRecord &t) {
            if (!log) return;
            RecordMeta meta;
            meta.trial = trial++;
            meta.seed = options.seed;
            try {
                log->append(*key, target, t.state, t.result, meta);
            } catch (const InvalidState &e) {
                std::fprintf(stderr, "[ansor] warning: could not record trial %lld in %s: %s\n", (long long)*meta.trial,
                             options.log.c_str(), e.what());
            }
        };
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
    } else if (log) {
        // No budget: the log's best program, the same one every time.
        std::optional<TuningRecord> best = best_record(history);
        if (!best) {
            throw UserError("HL_ANSOR_TRIALS=0 with HL_ANSOR_LOG=" + options.log + ", but the log holds no successful " +
                            "measurement of this pipeline (key " + key->hash + ") on target " + target.to_string() +
                            "; tune it first with HL_ANSOR_TRIALS > 0");
        }
        chosen = best->state;
        result.measured = true;
        result.from_log = true;
        result.best_ms = best->min_ms;
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
    if (result.from_log) {
        src << "best record of " << options.log << ", " << result.best_ms << " ms";
    } else if (result.measured) {
        src << "best of " << result.trials << " measured programs";
        if (!history.empty()) src << " and " << history.size() << " from " << options.log;
        src << ", " << result.best_ms << " ms";
    } else {
        src << "unmeasured schedule";
    }
    src << "\n" << chosen->source();
    result.schedule_source = src.str();
    return result;
}

}  // namespace ansor
