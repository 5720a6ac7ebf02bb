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

[[noreturn]] void usage(const std::string &problem) {
    std::fprintf(stderr,
                 "%s\nusage: ansor_train_model [LOG...] [--corpus FILE...] [--corpus-pipelines N] --out FILE [--objective pairwise|square|lambdarank] "
                 "[--pair-weighting programs|pipelines|pairs] [--max-rounds N] [--early-stopping ROUNDS (0: off)] [--target T]\n"
                 "       [--max-depth D] [--eta E] [--min-child-weight W] [--subsample SHARE] [--colsample SHARE]\n",
                 problem.c_str());
    std::exit(2);
}

// A number of an option, within [lo, hi]; anything else is a usage error naming the option.
double number_option(const std::string &option, const std::string &value, double lo, double hi) {
    char *end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || !(v >= lo && v <= hi))
        usage(option + " must be a number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], not " + value);
    return v;
}

Args parse(int argc, char **argv) {
    Args a;
    for (int i = 1; i < argc; i++) {
        std::string arg = argv[i];
        if (arg == "--corpus") {
            // Every argument up to the next option is a corpus file.
            while (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) a.corpora.push_back(argv[++i]);
            continue;
        }
        if (arg.rfind("--", 0) != 0) {
            a.logs.push_back(arg);
            continue;
        }
        if (i + 1 >= argc) usage("missing value after " + arg);
        std::string value = argv[++i];
        if (arg == "--out") a.out = value;
        else if (arg == "--objective") {
            // The names HL_ANSOR_MODEL_OBJECTIVE takes.
            bool known = false;
            for (auto o : {ansor::ModelObjective::Pairwise, ansor::ModelObjective::Square, ansor::ModelObjective::LambdaRank}) {
                if (value == ansor::choice_name(o)) {
                    a.objective = o;
                    known = true;
                }
            }
            if (!known) usage("--objective must be pairwise, square or lambdarank, not " + value);
        } else if (arg == "--pair-weighting") {
            try {
                a.pair_weighting = ansor::pair_weighting_from_name(value);
            } catch (const std::invalid_argument &e) {
                usage(e.what());
            }
        } else if (arg == "--max-rounds") a.max_rounds = std::atoi(value.c_str());
        else if (arg == "--early-stopping") a.early_stopping_rounds = std::atoi(value.c_str());
        else if (arg == "--target") a.target = value;
        else if (arg == "--max-depth") a.trees.max_depth = (int)number_option(arg, value, 1, 30);
        else if (arg == "--eta") a.trees.eta = number_option(arg, value, 1e-6, 1);
        else if (arg == "--min-child-weight") a.trees.min_child_weight = number_option(arg, value, 0, 1e9);
        else if (arg == "--subsample") a.trees.subsample = number_option(arg, value, 1e-6, 1);
        else if (arg == "--colsample") a.trees.colsample_bytree = number_option(arg, value, 1e-6, 1);
        else if (arg == "--corpus-pipelines") {
            char *end = nullptr;
            const long long n = std::strtoll(value.c_str(), &end, 10);
            if (value.empty() || *end != '\0' || n <= 0) usage("--corpus-pipelines must be a positive count, not " + value);
            a.corpus_pipelines = (size_t)n;
        } else usage("unknown option " + arg);
    }
    if ((a.logs.empty() && a.corpora.empty()) || a.out.empty()) usage("needs a LOG or a --corpus FILE, and --out FILE");
    if (a.corpus_pipelines != SIZE_MAX && a.corpora.empty()) usage("--corpus-pipelines needs a --corpus FILE");
    if (a.max_rounds <= 0) usage("--max-rounds must be at least 1");
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
