// Trains the cost model the plugin ships with (or any model a user wants to
// start searches from) on measured programs of many pipelines, and writes it
// as a model file (src/model/model_file.h). Every pipeline's programs are one
// group: the pairwise objective only orders programs of one pipeline, so the
// model learns what makes a program faster than another of the same
// pipeline, which is what a search asks of it.
//
//   ansor_train_model [LOG...] [--corpus FILE...] [--corpus-pipelines N] --out FILE
//                     [--objective pairwise|square|lambdarank] [--pair-weighting programs|pipelines|pairs]
//       [--max-rounds 300] [--early-stopping 0] [--target T]
//       [--max-depth 10] [--eta 0.2] [--min-child-weight 0] [--subsample 1] [--colsample 1]
//
// LOGs are tuning logs of operator-suite pipelines (every suite pipeline is
// rebuilt in process and its records featurised as the search sees them;
// apps/program_dataset.h). Corpus files (ansor_corpus, docs/corpus.md) name
// each pipeline by its generator and params: it is rebuilt, its key checked
// and its programs featurised (apps/corpus/corpus_dataset.h);
// `--corpus-pipelines N` reads only their first N pipelines, in file order
// (the corpus as it was when N pipelines had been measured). The
// repository's shipped model is built as docs/cost_model.md says, e.g.
//   zcat docs/results/model_dataset.jsonl.gz > /tmp/model_dataset.jsonl
//   ansor_train_model /tmp/model_dataset.jsonl --corpus corpus/random_pipelines.jsonl.gz \
//       --corpus-pipelines 1011 --out models/ansor_cost_model.gz
// and the build copies it beside libansor.so, where the plugin finds it.
#include "cli.h"
#include "corpus_dataset.h"
#include "features/program_features.h"
#include "model/make_cost_model.h"
#include "model/model_file.h"
#include "model/trained_model.h"
#include "options/options.h"
#include "program_dataset.h"
#include "util/errors.h"
#include "util/target.h"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <vector>

namespace {

const char *const default_target = ansor::kAvx512Target;

struct Args {
    std::vector<std::string> logs;
    std::vector<std::string> corpora;
    size_t corpus_pipelines = SIZE_MAX;  // all
    std::string out;
    ansor::ModelObjective objective = ansor::Options().model_objective;
    int max_rounds = ansor::PackSumParams().max_rounds;
    // Off: on the whole corpus the training loss can sit still for ten
    // rounds early on and stop at about 20 trees, which rank the apps far
    // worse than 300 (docs/cost_model.md, "What we tried").
    int early_stopping_rounds = 0;
    // Pipelines measured hundreds of times (the operator suite) would
    // otherwise outweigh the corpus's 16-program pipelines by their n² pairs.
    ansor::PackSumParams::PairWeighting pair_weighting = ansor::PackSumParams::PairWeighting::Programs;
    std::string target = default_target;
    // The booster's tree settings (PackSumParams' defaults unless given).
    ansor::PackSumParams trees;
};

Args parse(int argc, char **argv) {
    Args a;
    std::string objective = ansor::choice_name(a.objective), pair_weighting = ansor::pair_weighting_name(a.pair_weighting);
    size_t corpus_pipelines = 0;
    ansor_cli::Parser p("ansor_train_model", "Trains the cost model on tuning logs of suite pipelines and on corpus files.");
    p.positional("LOG", &a.logs, "tuning logs of operator-suite pipelines").optional().whole();
    p.option("--corpus", &a.corpora, "corpus files (every argument up to the next option)", "FILE").whole().greedy();
    p.option("--corpus-pipelines", &corpus_pipelines, "only the first N pipelines of the corpus files (default: all)");
    p.option("--out", &a.out, "the model file written", "FILE").required();
    p.option("--objective", &objective, "the training objective", "pairwise|square|lambdarank");
    p.option("--pair-weighting", &pair_weighting, "the weights of pairs", "programs|pipelines|pairs");
    p.option("--max-rounds", &a.max_rounds, "trees at most, >= 1");
    p.option("--early-stopping", &a.early_stopping_rounds, "rounds without improvement before stopping (0: off)", "ROUNDS");
    p.option("--target", &a.target, "the target whose programs are read", "T");
    p.option("--max-depth", &a.trees.max_depth, "tree depth, 1..30", "D");
    p.option("--eta", &a.trees.eta, "the learning rate, (0, 1]", "E");
    p.option("--min-child-weight", &a.trees.min_child_weight, "XGBoost's min_child_weight, >= 0", "W");
    p.option("--subsample", &a.trees.subsample, "the share of programs per tree, (0, 1]", "SHARE");
    p.option("--colsample", &a.trees.colsample_bytree, "the share of features per tree, (0, 1]", "SHARE");
    p.parse(argc, argv);

    // The names HL_ANSOR_MODEL_OBJECTIVE takes.
    bool known = false;
    for (auto o : {ansor::ModelObjective::Pairwise, ansor::ModelObjective::Square, ansor::ModelObjective::LambdaRank}) {
        if (objective == ansor::choice_name(o)) {
            a.objective = o;
            known = true;
        }
    }
    if (!known) p.fail("--objective must be pairwise, square or lambdarank, not " + objective);
    try {
        a.pair_weighting = ansor::pair_weighting_from_name(pair_weighting);
    } catch (const std::invalid_argument &e) {
        p.fail(e.what());
    }
    auto in_range = [&](const std::string &option, double v, double lo, double hi) {
        if (!(v >= lo && v <= hi))
            p.fail(option + " must be a number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], not " +
                   std::to_string(v));
    };
    in_range("--max-depth", a.trees.max_depth, 1, 30);
    in_range("--eta", a.trees.eta, 1e-6, 1);
    in_range("--min-child-weight", a.trees.min_child_weight, 0, 1e9);
    in_range("--subsample", a.trees.subsample, 1e-6, 1);
    in_range("--colsample", a.trees.colsample_bytree, 1e-6, 1);
    if (p.given("--corpus-pipelines")) {
        if (corpus_pipelines == 0) p.fail("--corpus-pipelines must be a positive count, not 0");
        a.corpus_pipelines = corpus_pipelines;
    }
    if (a.logs.empty() && a.corpora.empty()) p.fail("needs a LOG or a --corpus FILE, and --out FILE");
    if (a.corpus_pipelines != SIZE_MAX && a.corpora.empty()) p.fail("--corpus-pipelines needs a --corpus FILE");
    if (a.max_rounds <= 0) p.fail("--max-rounds must be at least 1");
    return a;
}

}  // namespace

int main(int argc, char **argv) {
    Args args = parse(argc, argv);
    try {
        const Halide::Target target(args.target);
        // Parallelism 2, as the benchmarks' machine params (the DAG analysis depends on it).
        ansor_apps::ProgramDataset data;
        if (!args.logs.empty()) data = ansor_apps::load_suite_dataset(args.logs, target, 2);
        if (!args.corpora.empty()) {
            const ansor_corpus::CorpusDatasetStats c = ansor_corpus::add_corpus_files(args.corpora, target, data, args.corpus_pipelines);
            std::printf("corpus: %zu pipelines read, %zu programs featurised (%zu duplicates merged); left out: %zu of "
                        "another target, %zu untuned, %zu with another key, %zu programs unreplayable\n",
                        c.entries, c.programs, c.duplicates, c.other_target, c.untuned, c.key_mismatch, c.unreplayable);
        }
        ansor::PackSumParams params = args.trees;
        params.objective = ansor::pack_sum_objective(args.objective);
        params.max_rounds = args.max_rounds;
        params.early_stopping_rounds = args.early_stopping_rounds;
        params.pair_weighting = args.pair_weighting;
        params.nthread = 2;
        ansor::TrainedModel model(params);
        for (const auto &p : data.pipelines) model.add_programs(p.name, p.programs, p.ms);
        if (model.training_programs() == 0) {
            std::fprintf(stderr, "ansor_train_model: the logs and corpus files hold no programs on %s\n",
                         target.to_string().c_str());
            return 1;
        }
        auto start = std::chrono::steady_clock::now();
        model.retrain();
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        ansor::ModelFileInfo info;
        info.objective = ansor::choice_name(args.objective);
        info.target = target.to_string();
        info.pipelines = data.pipelines.size();
        info.programs = model.training_programs();
        std::vector<std::string> sources = args.logs;
        sources.insert(sources.end(), args.corpora.begin(), args.corpora.end());
        for (const auto &log : sources) {
            const size_t slash = log.rfind('/');
            info.sources.push_back(slash == std::string::npos ? log : log.substr(slash + 1));
        }
        ansor::save_model_file(args.out, model.trees(), info);
        std::printf("trained on %zu programs of %zu pipelines in %.1f s: %d trees, feature set %s; wrote %s\n",
                    info.programs, info.pipelines, seconds, model.trees().rounds(),
                    ansor::feature_set_version().c_str(), args.out.c_str());
    } catch (const ansor::UserError &e) {
        std::fprintf(stderr, "ansor_train_model: %s\n", e.what());
        return 1;
    }
    return 0;
}
