// Judges rules for the zero-shot pick on measured picks: a corpus file made
// with `ansor_corpus --model M` holds, per pipeline, the programs M ranked
// best after evolution (the best of each of its best sketches), each measured.
// For every such pipeline this tool rescores the programs, applies each rule
// to choose one of them, and reports the chosen program's time over the
// fastest of them (docs/cost_model.md, "The judge").
//
//   ansor_pick_rules PICKS.jsonl.gz [PICKS2 ...] --model M.gz [--judge J.gz ...]
//                    [--neighbours 32] [--top K] [--seed 1] [--per-pipeline]
//
// Rules:
//   first           M's best-scored program (the zero-shot choice as shipped)
//   neighbours      the best mean M score over N random mutations of the program
//   neighbours-q25  the same by the lower quartile of the mutations' scores
//   judge:J         J's best-scored program
//   ranksum:J       the least sum of the program's rank by M and by J
// A mutation is one of evolution's (tile size, parallel, auto-unroll, compute
// location): a program M overrates for a quirk of its features tends to lose
// that quirk in its neighbours, a program good for its structure keeps it.
#include "cli.h"
#include "corpus_file.h"
#include "corpus_pipelines.h"
#include "model/make_cost_model.h"
#include "model/model_file.h"
#include "records/canonical_steps.h"
#include "records/pipeline_key.h"
#include "search/mutations.h"
#include "search/session_settings.h"
#include "util/errors.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

struct Args {
    std::vector<std::string> files, judges;
    std::string model;
    int neighbours = 32;
    int top = 0;  // rules choose among M's `top` best-scored picks (0: all)
    uint64_t seed = 1;
    bool per_pipeline = false;
};

// A failed pick (timeout, crash, wrong output) counts as this many times the best.
constexpr double kFailedRatio = 10;

struct RuleTally {
    std::string name;
    std::vector<double> ratios;  // chosen program's time over the fastest pick's, per pipeline
    int failed = 0;
};

double geomean(const std::vector<double> &v) {
    if (v.empty()) return NAN;
    double s = 0;
    for (double x : v) s += std::log(x);
    return std::exp(s / (double)v.size());
}

double quantile(std::vector<double> v, double q) {
    if (v.empty()) return -std::numeric_limits<double>::infinity();
    std::sort(v.begin(), v.end());
    return v[(size_t)std::floor(q * (double)(v.size() - 1))];
}

size_t argmax(const std::vector<double> &v) { return (size_t)(std::max_element(v.begin(), v.end()) - v.begin()); }

// Rank 0 for the highest score.
std::vector<int> ranks(const std::vector<double> &scores) {
    std::vector<size_t> order(scores.size());
    for (size_t i = 0; i < order.size(); i++) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return scores[a] > scores[b]; });
    std::vector<int> r(scores.size());
    for (size_t i = 0; i < order.size(); i++) r[order[i]] = (int)i;
    return r;
}

std::string base_name(const std::string &path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

struct Judge {
    std::string name;
    std::shared_ptr<const ansor::PackSumXGBoost> trees;
};

std::unique_ptr<ansor::CostModel> model_for(const ansor::PipelineDAG &dag, const ansor::SessionSettings &s,
                                            std::shared_ptr<const ansor::PackSumXGBoost> trees) {
    return ansor::make_cost_model(ansor::CostModelKind::XGBoost, dag, s.tuner.seed, s.model_objective, std::move(trees));
}

// Scores one entry's picks under every rule; false if the entry cannot be judged.
bool judge_entry(const ansor_corpus::CorpusEntry &e, const Args &args, const ansor::LoadedModel &model,
                 const std::vector<Judge> &judges, std::vector<RuleTally> &tallies) {
    const Halide::Target target(e.target);
    std::unique_ptr<ansor_corpus::BuiltPipeline> built = ansor_corpus::build_pipeline(e.spec, target);
    ansor::PipelineDAG dag(built->outputs(), e.parallelism);
    const ansor::PipelineKey key = ansor::make_pipeline_key(dag);
    if (key.hash != e.key) {
        std::fprintf(stderr, "ansor_pick_rules: %s builds under key %s, not %s (left out)\n", e.spec.id().c_str(),
                     key.hash.c_str(), e.key.c_str());
        return false;
    }
    ansor::Options options;
    options.model = "none";
    const ansor::SessionSettings settings = ansor::session_settings(options, dag, target);

    std::vector<ansor::State> states;
    std::vector<double> times;
    for (const ansor_corpus::CorpusProgram &p : e.programs) {
        try {
            states.push_back(ansor::state_from_canonical_steps(dag, key.names, p.steps));
        } catch (const ansor::InvalidState &) {
            continue;
        }
        times.push_back(p.ok && std::isfinite(p.min_ms) ? p.min_ms : std::numeric_limits<double>::infinity());
    }
    const double best = *std::min_element(times.begin(), times.end());
    if (states.size() < 2 || !std::isfinite(best)) return false;

    std::unique_ptr<ansor::CostModel> m = model_for(dag, settings, model.trees);
    std::vector<double> own = m->predict(states);
    if (args.top > 0 && (size_t)args.top < states.size()) {
        // Keep M's `top` best-scored picks (the measured best stays the best of all picks).
        const std::vector<int> r = ranks(own);
        std::vector<ansor::State> kept_states;
        std::vector<double> kept_times, kept_own;
        for (size_t i = 0; i < states.size(); i++) {
            if (r[i] >= args.top) continue;
            kept_states.push_back(states[i]);
            kept_times.push_back(times[i]);
            kept_own.push_back(own[i]);
        }
        states = std::move(kept_states);
        times = std::move(kept_times);
        own = std::move(kept_own);
    }

    // Each pick's neighbours: random single mutations, scored by M.
    ansor::RandomAnnotator annotator(dag, target, settings.annotation);
    ansor::Mutator mutator(annotator, settings.annotation);
    std::mt19937_64 rng(args.seed);
    std::vector<double> neighbour_mean(states.size()), neighbour_q25(states.size());
    for (size_t i = 0; i < states.size(); i++) {
        std::vector<ansor::State> mutants;
        for (int tries = 0; (int)mutants.size() < args.neighbours && tries < 4 * args.neighbours; tries++) {
            if (auto s = mutator.mutate(states[i], rng)) mutants.push_back(std::move(*s));
        }
        std::vector<double> scores;
        for (double x : m->predict(mutants)) {
            if (std::isfinite(x)) scores.push_back(x);
        }
        double sum = 0;
        for (double x : scores) sum += x;
        neighbour_mean[i] = scores.empty() ? own[i] : sum / (double)scores.size();
        neighbour_q25[i] = scores.empty() ? own[i] : quantile(scores, 0.25);
    }

    std::vector<size_t> chosen = {argmax(own), argmax(neighbour_mean), argmax(neighbour_q25)};
    const std::vector<int> own_rank = ranks(own);
    for (const Judge &j : judges) {
        const std::vector<double> js = model_for(dag, settings, j.trees)->predict(states);
        chosen.push_back(argmax(js));
        const std::vector<int> jr = ranks(js);
        std::vector<double> negated_sum(states.size());
        for (size_t i = 0; i < states.size(); i++) negated_sum[i] = -(double)(own_rank[i] + jr[i]) - 1e-3 * own_rank[i];
        chosen.push_back(argmax(negated_sum));
    }
    if (args.per_pipeline) std::printf("%-60s best %9.4f ms", e.spec.id().c_str(), best);
    for (size_t r = 0; r < chosen.size(); r++) {
        const double t = times[chosen[r]];
        const bool failed = !std::isfinite(t);
        tallies[r].ratios.push_back(failed ? kFailedRatio : t / best);
        tallies[r].failed += failed;
        if (args.per_pipeline) std::printf("  %s %.2f", tallies[r].name.c_str(), failed ? kFailedRatio : t / best);
    }
    if (args.per_pipeline) std::printf("\n");
    return true;
}

}  // namespace

int main(int argc, char **argv) {
    Args args;
    ansor_cli::Parser p("ansor_pick_rules", "Rules for picking among a model's best-scored programs, judged on measured picks.");
    p.positional("PICKS.jsonl.gz", &args.files, "corpus files of measured picks").whole();
    p.option("--model", &args.model, "the model whose picks are judged", "M.gz").required();
    p.option("--judge", &args.judges, "a model that judges the picks too", "J.gz").whole();
    p.option("--neighbours", &args.neighbours, "neighbours of the neighbours rules, >= 1");
    p.option("--top", &args.top, "rules choose among the model's top K picks (0: all)", "K");
    p.option("--seed", &args.seed, "the seed", "S");
    p.option("--per-pipeline", &args.per_pipeline, "prints every pipeline's result");
    p.parse(argc, argv);
    if (args.neighbours < 1) p.fail("--neighbours must be at least 1");
    try {
        const ansor::LoadedModel model = ansor::load_model_file(args.model);
        std::vector<Judge> judges;
        std::vector<RuleTally> tallies = {{"first"}, {"neighbours"}, {"neighbours-q25"}};
        for (const std::string &j : args.judges) {
            judges.push_back({base_name(j), ansor::load_model_file(j).trees});
            tallies.push_back({"judge:" + base_name(j)});
            tallies.push_back({"ranksum:" + base_name(j)});
        }
        size_t judged = 0, skipped = 0;
        for (const std::string &file : args.files) {
            for (const ansor_corpus::CorpusEntry &e : ansor_corpus::read_corpus(file).entries) {
                if (!e.error.empty() || e.programs.size() < 2) {
                    skipped++;
                    continue;
                }
                judge_entry(e, args, model, judges, tallies) ? judged++ : skipped++;
            }
        }
        std::printf("%zu pipelines judged (%zu left out: untuned, fewer than 2 picks, or none ran)\n", judged, skipped);
        std::printf("%-32s %10s %12s %8s %7s\n", "rule", "geomean", "within 1.2x", "over 2x", "failed");
        for (const RuleTally &t : tallies) {
            const long within = std::count_if(t.ratios.begin(), t.ratios.end(), [](double r) { return r <= 1.2; });
            const long over = std::count_if(t.ratios.begin(), t.ratios.end(), [](double r) { return r > 2; });
            std::printf("%-32s %10.3f %7ld of %zu %8ld %7d\n", t.name.c_str(), geomean(t.ratios), within,
                        t.ratios.size(), over, t.failed);
        }
    } catch (const ansor::UserError &e) {
        std::fprintf(stderr, "ansor_pick_rules: %s\n", e.what());
        return 1;
    }
    return 0;
}
