// Tuning curves: best measured time against trials, for several search
// policies and seeds on one operator of the suite, all on this machine in
// one run. Answers "does the model-guided search reach random search's best
// in fewer trials?" (issue 3) and the ablation of issue 4.
//
//   ansor_tuning_curve --op gmm:3 [--policies random,model,evolution,no-crossover,uncapped,limited,reduction-tile-1024,square,pairwise]
//       [--seeds 0,1] [--trials 200] [--csv curve.csv] [--log programs.jsonl]
//       [--vector-tile-bias 0.8] [--pretrain SET.jsonl]
//
// Policies:
//   random        fresh random programs only
//   model         the XGBoost model ranks fresh samples (no evolution)
//   evolution     evolution with mutation and node-based crossover (the default search)
//   no-crossover  evolution with mutation only
//   uncapped      evolution without the per-round cap on one program structure
//   limited       evolution restricted to one sketch (the first: a fixed tile structure)
//   reduction-tile-1024  evolution with reduction loops' inner tiles (the K
//                 block) drawn up to 1024 instead of the default 64
//   square        evolution with the model trained on Ansor's weighted squared error
//   pairwise      evolution with the model trained on the pairwise objective
//                 (HL_ANSOR_MODEL_OBJECTIVE; evolution uses the plugin's default)
//   P+pretrain    policy P (model or evolution) with the XGBoost model first
//                 trained on the --pretrain set's programs of every other
//                 pipeline (never this one's; ansor_export_pretraining writes
//                 the set), so that it ranks from the first round
//                 (docs/cost_model.md, "Pretraining")
// Runs are interleaved round by round (every policy and seed measures one
// round in turn), so machine drift hits all of them alike. --log appends
// every measured program to a tuning log (a data set for the cost model). The CSV holds one
// row per measurement; scripts/plot_tuning_curve.py draws it and prints, per
// policy, the trials it took to reach random search's final best.
#include "cli.h"
#include "options/options.h"
#include "records/pretraining_set.h"
#include "search/tuning_session.h"
#include "suite_pipelines.h"
#include "util/target.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

namespace {

const char *const default_target = ansor::project_cpu_target();

struct Args {
    std::string op = "gmm:3";
    std::vector<std::string> policies = {"random", "model", "evolution"};
    std::vector<uint64_t> seeds = {0};
    int trials = 200;
    std::string csv;
    std::string log;
    double vector_tile_bias = ansor::Options{}.vector_tile_bias;
    std::string pretrain;  // a pretraining set (ansor_export_pretraining)
};

const std::string pretrain_suffix = "+pretrain";

bool is_pretrained(const std::string &policy) {
    return policy.size() > pretrain_suffix.size() &&
           policy.compare(policy.size() - pretrain_suffix.size(), pretrain_suffix.size(), pretrain_suffix) == 0;
}

std::string base_policy(const std::string &policy) {
    return is_pretrained(policy) ? policy.substr(0, policy.size() - pretrain_suffix.size()) : policy;
}

// The command line, filling a (its members hold the defaults).
ansor_cli::Parser command_line(Args &a) {
    ansor_cli::Parser p("ansor_tuning_curve", "Best time against trials for several search policies and seeds, interleaved.\n"
                                              "(model+pretrain and evolution+pretrain need --pretrain)");
    p.option("--op", &a.op, "the suite operator and shape", "OP:SHAPE");
    p.option("--policies", &a.policies, "random, model, evolution, no-crossover, uncapped, limited, "
                                        "reduction-tile-1024, square, pairwise, P+pretrain", "P,Q");
    p.option("--seeds", &a.seeds, "the seeds of each policy");
    p.option("--trials", &a.trials, "trials per run, > 0");
    p.option("--csv", &a.csv, "a CSV of every measurement", "FILE");
    p.option("--log", &a.log, "a tuning log every measured program is appended to", "FILE");
    p.option("--vector-tile-bias", &a.vector_tile_bias, "the search's vector tile bias", "P");
    p.option("--pretrain", &a.pretrain, "the pretraining set of the +pretrain policies", "SET");
    return p;
}

// The checks of the values parse() cannot make.
void check(const ansor_cli::Parser &p, const Args &a) {
    static const std::set<std::string> known = {"random",  "model",   "evolution", "no-crossover",
                                                "uncapped", "limited", "square",    "pairwise",
                                                "reduction-tile-1024"};
    for (const auto &policy : a.policies) {
        if (!known.count(base_policy(policy))) p.fail("unknown policy " + policy);
        if (is_pretrained(policy) && base_policy(policy) != "model" && base_policy(policy) != "evolution") {
            p.fail("only model and evolution can be pretrained, not " + policy);
        }
        if (is_pretrained(policy) && a.pretrain.empty()) p.fail(policy + " needs --pretrain SET");
    }
    if (a.trials <= 0 || a.seeds.empty()) p.fail("--trials must be > 0 and --seeds non-empty");
}

// The session settings of one policy: the plugin's defaults (the options'
// defaults), then the policy's changes.
ansor::SessionSettings policy_settings(const Args &args, const std::string &policy, uint64_t seed,
                                       const ansor::PipelineDAG &dag, const Halide::Target &target) {
    ansor::Options o;
    o.seed = seed;
    o.progress = false;  // the curve prints its own progress, per round of every run
    o.vector_tile_bias = args.vector_tile_bias;
    if (policy == "random") {
        o.search = ansor::SearchPolicy::Random;
        o.cost_model = ansor::CostModelKind::Random;
    }
    if (policy == "model") o.search = ansor::SearchPolicy::Model;
    if (policy == "square") o.model_objective = ansor::ModelObjective::Square;
    if (policy == "pairwise") o.model_objective = ansor::ModelObjective::Pairwise;
    if (policy == "no-crossover") o.crossover_share = 0;
    if (policy == "uncapped") o.structure_share = 1;
    if (policy == "reduction-tile-1024") o.max_reduction_factor = 1024;
    ansor::SessionSettings s = ansor::session_settings(o, dag, target);
    if (policy == "limited") s.max_sketches = 1;  // one sketch: a fixed tile structure
    // Every run starts cold; --log only records what the runs measure.
    s.log = args.log;
    s.resume_from_log = false;
    return s;
}

// One policy and seed: its own pipeline and tuning session.
struct Run {
    std::string policy;
    uint64_t seed;
    ansor_apps::SuitePipeline built;
    std::unique_ptr<ansor::PipelineDAG> dag;
    std::unique_ptr<ansor::TuningSession> session;
    int trials = 0;
    double best_ms = INFINITY;
};

}  // namespace

int main(int argc, char **argv) {
    Args args;
    ansor_cli::Parser p = command_line(args);
    p.parse(argc, argv);
    check(p, args);
    Halide::Target target(default_target);
    const int parallelism = 2;
    const ansor_ops::OpShapes *op;
    size_t shape_index;
    try {
        std::tie(op, shape_index) = ansor_apps::parse_op_shape(args.op);
    } catch (const std::exception &e) {
        p.fail(e.what());
    }
    const ansor_ops::Shape &shape = op->ansor_shapes[shape_index];

    std::ofstream csv;
    if (!args.csv.empty()) {
        csv.open(args.csv);
        if (!csv) p.fail("cannot write " + args.csv);
        csv << "op,shape,policy,seed,trial,ok,ms,best_ms,elapsed_s\n";
    }

    std::shared_ptr<const ansor::PretrainingSet> pretraining;
    if (!args.pretrain.empty()) pretraining = std::make_shared<ansor::PretrainingSet>(ansor::read_pretraining_set(args.pretrain));

    auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    std::vector<std::unique_ptr<Run>> runs;
    for (uint64_t seed : args.seeds) {
        for (const auto &named_policy : args.policies) {
            auto r = std::make_unique<Run>();
            r->policy = named_policy;
            r->seed = seed;
            r->built = ansor_apps::build_suite_pipeline(op->name, shape, target);
            r->dag = std::make_unique<ansor::PipelineDAG>(r->built.outputs(), parallelism);
            ansor::SessionSettings settings = policy_settings(args, base_policy(named_policy), seed, *r->dag, target);
            ansor::SessionParts parts;
            if (is_pretrained(named_policy)) {
                // Trained on the set's programs of every pipeline but the run's
                // own, as the plugin does with HL_ANSOR_PRETRAIN.
                settings.pretrain = args.pretrain;
                parts.pretraining = pretraining;
            }
            r->session = std::make_unique<ansor::TuningSession>(*r->dag, target, settings, parts);
            Run *run = r.get();
            run->session->on_measured = [&, run](const ansor::TrialRecord &t) {
                run->trials++;
                if (t.result.ok) run->best_ms = std::min(run->best_ms, t.result.min_ms);
                if (csv.is_open()) {
                    csv << op->name << "," << shape_index << "," << run->policy << "," << run->seed << "," << run->trials
                        << "," << (t.result.ok ? 1 : 0) << "," << (t.result.ok ? t.result.min_ms : NAN) << ","
                        << run->best_ms << "," << elapsed() << "\n";
                    csv.flush();
                }
            };
            runs.push_back(std::move(r));
        }
    }
    std::printf("%s shape %zu (%s): %zu runs x %d trials, interleaved by round\n", op->name.c_str(), shape_index,
                ansor_ops::generator_params(shape).c_str(), runs.size(), args.trials);

    // One round of every run in turn until all have spent their trials.
    const int round = ansor::Options().measures_per_round;
    for (int done = 0; done < args.trials; done += round) {
        int step = std::min(round, args.trials - done);
        for (auto &r : runs) r->session->tune(step);
        std::fprintf(stderr, "[curve] %d/%d trials per run, %.0f s:", done + step, args.trials, elapsed());
        for (auto &r : runs) std::fprintf(stderr, "  %s/%llu %.4f ms", r->policy.c_str(), (unsigned long long)r->seed, r->best_ms);
        std::fprintf(stderr, "\n");
    }
    std::printf("%-14s %6s %12s\n", "policy", "seed", "best ms");
    for (auto &r : runs) std::printf("%-14s %6llu %12.4f\n", r->policy.c_str(), (unsigned long long)r->seed, r->best_ms);
    return 0;
}
