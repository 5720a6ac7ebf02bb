// The cost-model accuracy benchmark (docs/cost_model.md): trains the
// pack-sum XGBoost model (src/model) on measured programs of the operator
// suite read from tuning logs and reports how well it ranks unseen ones.
//
//   ansor_model_accuracy LOG [LOG...] [--seed N] [--test-share 0.2] [--target T]
//       [--eval-corpus FILE...] [--corpus FILE...] [--no-random-split] [--hold-out-eval-corpus]
//
// Two evaluations, each printed as one line of
// pairwise_accuracy / recall@30 / r2 (src/model/ranking_metrics.h), every
// metric computed per pipeline and averaged weighted by test programs:
//   random_split            each pipeline's programs split at random into
//                           train and test (test share, seeded);
//   leave_one_pipeline_out  for each pipeline, train on all the others and
//                           test on all of its programs (one line each, then
//                           the average).
// Labels: per pipeline, best time / time over all its programs in the logs
// (failures 0), PackSumXGBoost's normalized_throughputs.
//
// --eval-corpus adds the pipelines of corpus files (docs/corpus.md; the apps'
// corpus/apps_eval.jsonl.gz) to the evaluated ones. --corpus adds training
// data only (the random-pipeline corpus): each held-out pipeline is then
// scored twice, by a model trained with the corpus and by one without it
// (cold), and both print top-1: the time of the model's first choice over
// the best measured time of that pipeline. --hold-out-eval-corpus leaves
// out only the --eval-corpus pipelines (the logs' pipelines train in every
// fold), one model per app instead of one per pipeline. --no-cold leaves
// out the models without the corpus. --model FILE trains nothing: it ranks
// the evaluated pipelines (with --hold-out-eval-corpus, only the
// --eval-corpus ones) by a trained model file, e.g. the shipped model.
#include "cli.h"
#include "features/program_features.h"
#include "model/make_cost_model.h"
#include "model/model_file.h"
#include "model/pack_sum_xgboost.h"
#include "model/ranking_metrics.h"
#include "options/options.h"
#include "corpus_dataset.h"
#include "program_dataset.h"
#include "util/errors.h"
#include "util/target.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

const char *const default_target = ansor::kAvx512Target;
constexpr size_t kTopK = 30;
// The benchmark's MachineParams(2, ...): the DAGs the logged programs were made for.
constexpr int kParallelism = 2;

struct Args {
    std::vector<std::string> logs;
    std::vector<std::string> eval_corpora;      // corpus files whose pipelines are evaluated too
    std::vector<std::string> training_corpora;  // corpus files used only for training
    bool random_split = true;
    bool hold_out_eval_corpus_only = false;  // leave out only --eval-corpus pipelines (the logs' always train)
    bool cold = true;  // with --corpus, also the models trained without it
    std::string model_file;  // --model: rank the evaluated pipelines by this file, train nothing
    uint64_t seed = 0;
    double test_share = 0.2;
    std::string target = default_target;
    int importance = 0;  // print this many of the most used features
    std::string dump;    // write the test predictions (random split, or --model) here (CSV)
    bool per_pipeline = false;  // random split: one model per pipeline instead of one for all
    bool leave_one_out = true;  // also evaluate leaving each pipeline out (slow: one model per pipeline)
    ansor::PackSumParams model = search_defaults();  // the search's defaults unless overridden

    static ansor::PackSumParams search_defaults() {
        ansor::PackSumParams p;
        p.objective = ansor::pack_sum_objective(ansor::Options().model_objective);
        return p;
    }
};

Args parse(int argc, char **argv) {
    Args a;
    bool no_leave_one_out = false, no_random_split = false, no_cold = false;
    std::string objective, pair_weighting;
    ansor_cli::Parser p("ansor_model_accuracy", "The cost model's ranking accuracy on measured suite programs of tuning logs.");
    p.positional("LOG", &a.logs, "tuning logs").optional().whole();
    p.option("--seed", &a.seed, "the seed of the split and of the model");
    p.option("--test-share", &a.test_share, "the share of programs held out, in (0, 1)", "SHARE");
    p.option("--target", &a.target, "the target whose programs are read", "T");
    p.option("--importance", &a.importance, "prints this many of the most used features");
    p.option("--dump", &a.dump, "writes the test predictions here", "CSV");
    p.option("--per-pipeline-model", &a.per_pipeline, "random split: one model per pipeline");
    p.option("--objective", &objective, "the training objective (default: the search's)", "pairwise|square|lambdarank");
    p.option("--no-leave-one-out", &no_leave_one_out, "skips leaving each pipeline out");
    p.option("--no-random-split", &no_random_split, "skips the random split");
    p.option("--eval-corpus", &a.eval_corpora, "a corpus file whose pipelines are evaluated too", "FILE").whole();
    p.option("--corpus", &a.training_corpora, "a corpus file used only for training", "FILE").whole();
    p.option("--hold-out-eval-corpus", &a.hold_out_eval_corpus_only, "leaves out only --eval-corpus pipelines");
    p.option("--no-cold", &no_cold, "with --corpus, skips the models trained without it");
    p.option("--model", &a.model_file, "ranks by this model file, training nothing", "FILE");
    p.option("--max-depth", &a.model.max_depth, "tree depth", "D");
    p.option("--eta", &a.model.eta, "the learning rate", "E");
    p.option("--max-rounds", &a.model.max_rounds, "trees at most", "R");
    p.option("--min-weight", &a.model.min_weight, "the least weight of a program", "W");
    p.option("--pair-weighting", &pair_weighting, "the weights of pairs (default: the search's)", "pairs|programs|pipelines");
    p.parse(argc, argv);
    a.leave_one_out = !no_leave_one_out;
    a.random_split = !no_random_split;
    a.cold = !no_cold;
    try {
        if (!objective.empty()) a.model.objective = ansor::objective_from_name(objective);
        if (!pair_weighting.empty()) a.model.pair_weighting = ansor::pair_weighting_from_name(pair_weighting);
    } catch (const std::invalid_argument &e) {
        p.fail(e.what());
    }
    a.model.seed = a.seed;
    if (a.logs.empty() && a.eval_corpora.empty()) p.fail("no tuning log or --eval-corpus given");
    if (!(a.test_share > 0 && a.test_share < 1)) p.fail("--test-share must lie strictly between 0 and 1");
    return a;
}

using ansor_apps::DatasetPipeline;
using Indices = std::vector<size_t>;  // programs of one pipeline

// Trains on the chosen programs of every pipeline (train[p] indexes
// pipelines[p]'s programs) and scores the chosen test programs, one group
// per pipeline with test programs.
std::vector<ansor::ProgramGroup> train_and_score(const std::vector<DatasetPipeline> &pipelines,
                                                 const std::vector<Indices> &train, const std::vector<Indices> &test,
                                                 const ansor::PackSumParams &params,
                                                 std::vector<double> *gains = nullptr) {
    ansor::ProgramBatch batch(ansor::features::kCount);
    std::vector<float> labels;
    std::vector<int> pipeline_of;
    for (size_t p = 0; p < pipelines.size(); p++) {
        for (size_t i : train[p]) {
            pipeline_of.push_back((int)p);
            const auto &programs = pipelines[p].programs;
            batch.add(programs.rows.data() + programs.begin[i] * programs.num_features, programs.statements(i));
            labels.push_back((float)pipelines[p].labels[i]);
        }
    }
    ansor::PackSumXGBoost model(ansor::features::kCount, params);
    model.train(batch, labels, pipeline_of);
    if (gains) *gains = model.feature_gains();
    std::vector<ansor::ProgramGroup> groups;
    for (size_t p = 0; p < pipelines.size(); p++) {
        if (test[p].empty()) continue;
        ansor::ProgramGroup g;
        g.name = pipelines[p].name;
        g.predicted = model.predict(pipelines[p].programs.subset(test[p])).programs;
        for (size_t i : test[p]) g.truth.push_back(pipelines[p].labels[i]);
        groups.push_back(std::move(g));
    }
    return groups;
}

std::string metric(const std::optional<double> &v) {
    if (!v) return "n/a";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", *v);
    return buf;
}

// The pairwise objective's scores only order programs: r2 against the
// throughput labels means nothing then, and is printed as n/a.
bool scores_are_throughputs = true;

void print_line(const std::string &label, const ansor::RankingMetrics &m, const std::string &note) {
    std::printf("%s: pairwise_accuracy=%s recall@%zu=%s r2=%s (%s)\n", label.c_str(), metric(m.pairwise_accuracy).c_str(),
                kTopK, metric(m.top_k_recall).c_str(),
                metric(scores_are_throughputs ? m.r_squared : std::nullopt).c_str(), note.c_str());
}

size_t count(const std::vector<Indices> &sets) {
    size_t n = 0;
    for (const auto &s : sets) n += s.size();
    return n;
}

Indices all_programs(const DatasetPipeline &p) {
    Indices all(p.ms.size());
    for (size_t i = 0; i < all.size(); i++) all[i] = i;
    return all;
}

void print_dataset(const ansor_apps::ProgramDataset &data, const std::string &target) {
    std::printf("data set: %zu records read; target %s: %zu programs of %zu pipelines "
                "(%zu records of other targets, %zu of pipelines outside the suite, left out)\n",
                data.records_read, target.c_str(), data.programs(), data.pipelines.size(), data.other_target,
                data.unknown_pipeline);
    for (const DatasetPipeline &p : data.pipelines) {
        double best = *std::min_element(p.ms.begin(), p.ms.end());
        char best_ms[32] = "-";
        if (std::isfinite(best)) std::snprintf(best_ms, sizeof best_ms, "%.4f", best);
        std::printf("  %-14s %s  %4zu programs  %3zu failed  (%zu records, %zu duplicates merged, %zu unreplayable)  best %s ms\n",
                    p.name.c_str(), p.hash.c_str(), p.ms.size(), p.failed, p.records, p.duplicates, p.unreplayable, best_ms);
    }
}

// Each pipeline's programs shuffled, the first round(share × n) for testing.
void random_split(const std::vector<DatasetPipeline> &pipelines, double share, uint64_t seed,
                  std::vector<Indices> &train, std::vector<Indices> &test) {
    std::mt19937_64 rng(seed);
    for (const DatasetPipeline &p : pipelines) {
        Indices order = all_programs(p);
        std::shuffle(order.begin(), order.end(), rng);
        const size_t n_test = (size_t)std::lround(share * (double)order.size());
        test.emplace_back(order.begin(), order.begin() + n_test);
        train.emplace_back(order.begin() + n_test, order.end());
        std::sort(test.back().begin(), test.back().end());
        std::sort(train.back().begin(), train.back().end());
    }
}

// The features the random-split model leans on most: share of the total
// split gain, largest first.
void print_importance(const std::vector<double> &gains, int top) {
    if (top <= 0 || gains.empty()) return;
    double total = 0;
    for (double g : gains) total += g;
    std::vector<size_t> order(gains.size());
    for (size_t i = 0; i < order.size(); i++) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return gains[a] > gains[b]; });
    std::printf("random_split model: the %d features with the largest share of split gain\n", top);
    for (int i = 0; i < top && i < (int)order.size() && gains[order[i]] > 0; i++) {
        std::printf("  %5.1f%%  %s\n", 100.0 * gains[order[i]] / std::max(total, 1e-30),
                    ansor::feature_names()[order[i]].c_str());
    }
}

// pipeline,truth,predicted per test program, for studying the misordered pairs.
void dump_predictions(const std::vector<ansor::ProgramGroup> &groups, const std::string &path) {
    FILE *f = std::fopen(path.c_str(), "w");
    if (!f) throw ansor::UserError("cannot write " + path);
    std::fprintf(f, "pipeline,truth,predicted\n");
    for (const auto &g : groups) {
        for (size_t i = 0; i < g.truth.size(); i++) std::fprintf(f, "%s,%.6g,%.6g\n", g.name.c_str(), g.truth[i], g.predicted[i]);
    }
    std::fclose(f);
}

void evaluate_random_split(const std::vector<DatasetPipeline> &pipelines, const Args &args) {
    std::vector<Indices> train, test;
    random_split(pipelines, args.test_share, args.seed, train, test);
    std::vector<double> gains;
    std::vector<ansor::ProgramGroup> groups;
    if (args.per_pipeline) {
        // Each pipeline's model sees only its own training programs.
        for (size_t p = 0; p < pipelines.size(); p++) {
            std::vector<Indices> tr(pipelines.size()), te(pipelines.size());
            tr[p] = train[p];
            te[p] = test[p];
            if (tr[p].empty()) continue;
            for (auto &g : train_and_score(pipelines, tr, te, args.model)) groups.push_back(std::move(g));
        }
    } else {
        groups = train_and_score(pipelines, train, test, args.model, &gains);
    }
    print_importance(gains, args.importance);
    char note[160];
    std::snprintf(note, sizeof note, "train %zu programs, test %zu, %zu pipelines", count(train), count(test),
                  pipelines.size());
    // The summary line weighs each pipeline by its test programs, so the
    // pipelines with most programs dominate it; the unweighted line counts each once.
    double unweighted = 0;
    int counted = 0;
    for (const auto &g : groups) {
        char n[64];
        std::snprintf(n, sizeof n, "%zu test programs", g.truth.size());
        const ansor::RankingMetrics m = ansor::grouped_ranking_metrics({g}, kTopK);
        print_line("random_split " + g.name, m, n);
        if (m.pairwise_accuracy) {
            unweighted += *m.pairwise_accuracy;
            counted++;
        }
    }
    print_line("random_split", ansor::grouped_ranking_metrics(groups, kTopK), note);
    if (counted > 0) {
        std::printf("random_split unweighted: pairwise_accuracy=%.3f (mean over %d pipelines, each counted once)\n",
                    unweighted / counted, counted);
    }
    if (!args.dump.empty()) dump_predictions(groups, args.dump);
    print_line("random_split chance", ansor::chance_ranking_metrics(groups, kTopK), "a random ranking, same test sets");
    // All test programs as one group: labels are normalised per pipeline, so
    // this also asks whether scores are comparable across pipelines.
    ansor::ProgramGroup pooled;
    for (const auto &g : groups) {
        pooled.truth.insert(pooled.truth.end(), g.truth.begin(), g.truth.end());
        pooled.predicted.insert(pooled.predicted.end(), g.predicted.begin(), g.predicted.end());
    }
    print_line("random_split pooled", ansor::grouped_ranking_metrics({pooled}, kTopK),
               "all test programs ranked as one group");
    print_line("random_split pooled chance", ansor::chance_ranking_metrics({pooled}, kTopK), "a random ranking");
}

// Time of the model's first choice over the best measured time: labels are
// best / time, so it is 1 / the label of the top-scored program (infinite if
// that program failed).
double top1_ratio(const ansor::ProgramGroup &g) {
    size_t best = 0;
    for (size_t i = 1; i < g.predicted.size(); i++) {
        if (g.predicted[i] > g.predicted[best]) best = i;
    }
    return g.truth.empty() || g.truth[best] <= 0 ? INFINITY : 1.0 / g.truth[best];
}

// The metrics over all held-out groups, how often the first choice is
// within 1.2x of the best measured program, and chance for contrast.
void report_held_out(const std::string &label, const std::vector<ansor::ProgramGroup> &held_out) {
    ansor::RankingMetrics m = ansor::grouped_ranking_metrics(held_out, kTopK);
    char note[96];
    std::snprintf(note, sizeof note, "average over %zu held-out pipelines, %zu test programs", m.groups, m.programs);
    print_line(label, m, note);
    size_t within = 0;
    double log_sum = 0;
    for (const ansor::ProgramGroup &g : held_out) {
        const double r = top1_ratio(g);
        within += r <= 1.2;
        log_sum += std::log(std::min(r, 1e6));
    }
    std::printf("%s top1: first choice within 1.2x of the best measured on %zu of %zu pipelines (%.0f%%), "
                "geomean ratio %.3f\n",
                label.c_str(), within, held_out.size(), 100.0 * within / held_out.size(),
                std::exp(log_sum / held_out.size()));
    print_line(label + " chance", ansor::chance_ranking_metrics(held_out, kTopK), "a random ranking");
}

// Each evaluated pipeline held out in turn: trained on every other evaluated
// pipeline and on `extra` (training-only pipelines), tested on all of its
// programs. `label` names the variant in every line.
void evaluate_leave_one_out(const std::vector<DatasetPipeline> &pipelines, const std::vector<DatasetPipeline> &extra,
                            size_t first_held_out, const std::string &label, const Args &args) {
    std::vector<DatasetPipeline> pool = pipelines;
    pool.insert(pool.end(), extra.begin(), extra.end());
    std::vector<ansor::ProgramGroup> held_out;
    for (size_t h = first_held_out; h < pipelines.size(); h++) {
        std::vector<Indices> train(pool.size()), test(pool.size());
        for (size_t p = 0; p < pool.size(); p++) (p == h ? test : train)[p] = all_programs(pool[p]);
        if (count(train) == 0) continue;
        std::vector<ansor::ProgramGroup> groups = train_and_score(pool, train, test, args.model);
        const double ratio = top1_ratio(groups[0]);
        char note[128];
        std::snprintf(note, sizeof note, "top1=%.3f, train %zu programs, test %zu", ratio, count(train), count(test));
        print_line(label + " " + pipelines[h].name, ansor::grouped_ranking_metrics(groups, kTopK), note);
        std::fflush(stdout);
        held_out.push_back(std::move(groups[0]));
    }
    if (held_out.empty()) {
        std::printf("%s: needs at least two pipelines\n", label.c_str());
        return;
    }
    report_held_out(label, held_out);
}

// Every evaluated pipeline (from `first`) ranked by a trained model file,
// nothing trained here: a shipped model never saw the apps of the
// evaluation corpus.
void evaluate_model_file(const std::vector<DatasetPipeline> &pipelines, size_t first, const std::string &path,
                         const std::string &dump) {
    const ansor::LoadedModel model = ansor::load_model_file(path);
    std::vector<ansor::ProgramGroup> groups;
    for (size_t p = first; p < pipelines.size(); p++) {
        ansor::ProgramGroup g;
        g.name = pipelines[p].name;
        g.predicted = model.trees->predict(pipelines[p].programs).programs;
        g.truth.assign(pipelines[p].labels.begin(), pipelines[p].labels.end());
        char note[96];
        std::snprintf(note, sizeof note, "top1=%.3f, test %zu", top1_ratio(g), g.truth.size());
        print_line("model_file " + g.name, ansor::grouped_ranking_metrics({g}, kTopK), note);
        groups.push_back(std::move(g));
    }
    if (groups.empty()) {
        std::printf("model_file: no pipeline to evaluate\n");
        return;
    }
    report_held_out("model_file", groups);
    if (!dump.empty()) dump_predictions(groups, dump);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char **argv) {
    Args args = parse(argc, argv);
    scores_are_throughputs = args.model.objective == ansor::PackSumParams::Objective::WeightedSquare;
    try {
        const Halide::Target target(args.target);
        auto t0 = std::chrono::steady_clock::now();
        ansor_apps::ProgramDataset data = ansor_apps::load_suite_dataset(args.logs, target, kParallelism);
        const size_t first_held_out = args.hold_out_eval_corpus_only ? data.pipelines.size() : 0;
        if (!args.eval_corpora.empty()) ansor_corpus::add_corpus_files(args.eval_corpora, target, data);
        print_dataset(data, target.to_string());
        ansor_apps::ProgramDataset training_only;
        if (!args.training_corpora.empty()) {
            ansor_corpus::add_corpus_files(args.training_corpora, target, training_only);
            std::printf("training-only corpus: %zu programs of %zu pipelines\n", training_only.programs(),
                        training_only.pipelines.size());
        }
        std::printf("featurised in %.1f s; seed %llu, test share %.2f, recall@%zu with k = min(%zu, test programs of the pipeline)\n",
                    seconds_since(t0), (unsigned long long)args.seed, args.test_share, kTopK, kTopK);
        if (data.pipelines.empty()) {
            std::fprintf(stderr, "no program of an evaluated pipeline for this target in the logs or corpora\n");
            return 1;
        }
        t0 = std::chrono::steady_clock::now();
        if (!args.model_file.empty()) {
            evaluate_model_file(data.pipelines, first_held_out, args.model_file, args.dump);
            return 0;
        }
        if (args.random_split) evaluate_random_split(data.pipelines, args);
        if (args.leave_one_out) {
            if (!training_only.pipelines.empty()) {
                evaluate_leave_one_out(data.pipelines, training_only.pipelines, first_held_out,
                                       "leave_one_pipeline_out with_corpus", args);
            }
            if (training_only.pipelines.empty() || args.cold) {
                evaluate_leave_one_out(data.pipelines, {}, first_held_out, "leave_one_pipeline_out", args);
            }
        }
        std::printf("trained and scored in %.1f s\n", seconds_since(t0));
    } catch (const ansor::UserError &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
