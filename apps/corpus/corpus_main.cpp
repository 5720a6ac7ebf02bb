// ansor_corpus: measures programs of many pipelines for training the cost
// model (docs/corpus.md). Resumable: pipelines already complete in the
// output file are skipped, and an interrupted run loses at most the pipeline
// it was tuning.
//
//   ansor_corpus --out corpus/corpus.jsonl.gz [--seeds 0-99] [--stages N] [--max-size 1024] [--min-size 16]
//       [--programs 16] [--round 8] [--population 256] [--suite] [--minutes M]
//       [--target T] [--parallelism 2] [--model FILE]
//   --model: rank by that cost model file from the first round, so that the
//   programs measured are its picks (a file of their own: docs/corpus.md)
//   --apps: the 14 apps at their default sizes (the accuracy benchmark's
//   evaluation set; keep them in a file of their own, never train on it)
//
// SIGINT or SIGTERM stops it between rounds (a second SIGINT kills it).
//   ansor_corpus --summary FILE    what a corpus file holds
#include "corpus_pipelines.h"
#include "corpus_run.h"
#include "util/errors.h"
#include "util/target.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

namespace {

const char *const default_target = ansor::project_cpu_target();

std::atomic<bool> stop{false};

void on_signal(int) {
    stop = true;
    std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C kills
}

[[noreturn]] void usage(const std::string &problem) {
    std::fprintf(stderr,
                 "%s\nusage: ansor_corpus --out FILE [--seeds A-B] [--stages N (0: 2..16 drawn per seed)] "
                 "[--max-size N] [--min-size N] [--programs N] [--round N] [--population N] [--suite] [--apps] [--minutes M] "
                 "[--target T] [--parallelism N] [--model FILE]\n       ansor_corpus --summary FILE\n",
                 problem.c_str());
    std::exit(2);
}

int int_value(const std::string &arg, const std::string &value) {
    char *end = nullptr;
    const long v = std::strtol(value.c_str(), &end, 10);
    if (value.empty() || *end || v < 0 || v > 1 << 30) usage(arg + " needs a non-negative integer, not " + value);
    return (int)v;
}

// Pipelines, programs, the share that ran correctly and the time they took.
int summarise(const std::string &path) {
    const ansor_corpus::CorpusContents c = ansor_corpus::read_corpus(path);
    size_t untuned = 0, programs = 0, ok = 0, random = 0;
    double measuring = 0, wall = 0;
    std::set<std::string> targets;
    for (const auto &e : c.entries) {
        untuned += !e.error.empty();
        random += e.spec.generator == ansor_corpus::kRandomGenerator;
        wall += e.seconds;
        targets.insert(e.target);
        for (const auto &p : e.programs) {
            programs++;
            ok += p.ok;
            measuring += p.seconds;
        }
    }
    std::printf("%s: %zu bytes, %zu pipelines (%zu random, %zu untuned), %zu programs, %zu ran correctly (%.1f%%)\n",
                path.c_str(), c.valid_bytes, c.entries.size(), random, untuned, programs, ok,
                programs ? 100.0 * ok / programs : 0.0);
    std::printf("wall time %.0f s in all: %.2f s per program (%.2f s measuring it, compile included)\n", wall,
                programs ? wall / programs : 0.0, programs ? measuring / programs : 0.0);
    for (const auto &t : targets) std::printf("target %s\n", t.c_str());
    if (c.cut_short()) std::printf("and a cut-short last entry of %zu bytes\n", c.file_bytes - c.valid_bytes);
    return 0;
}

struct Args {
    ansor_corpus::CorpusRunOptions run;
    bool seeds_given = false, suite = false, apps = false;
    uint64_t first = 0, last = 99;
    int stages = 0, max_size = 1024, min_size = 16;
};

Args parse(int argc, char **argv) {
    Args a;
    a.run.target = Halide::Target(default_target);
    for (int i = 1; i < argc; i++) {
        const std::string arg = argv[i];
        if (arg == "--suite" || arg == "--apps") {
            (arg == "--suite" ? a.suite : a.apps) = true;
            continue;
        }
        if (i + 1 >= argc) usage("missing value after " + arg);
        const std::string value = argv[++i];
        if (arg == "--out") a.run.out = value;
        else if (arg == "--seeds") {
            const size_t dash = value.find('-');
            if (dash == std::string::npos) usage("--seeds takes A-B, not " + value);
            a.first = (uint64_t)int_value(arg, value.substr(0, dash));
            a.last = (uint64_t)int_value(arg, value.substr(dash + 1));
            if (a.last < a.first) usage("--seeds " + value + ": B is below A");
            a.seeds_given = true;
        } else if (arg == "--stages") a.stages = int_value(arg, value);
        else if (arg == "--max-size") a.max_size = int_value(arg, value);
        else if (arg == "--min-size") a.min_size = int_value(arg, value);
        else if (arg == "--programs") a.run.programs = int_value(arg, value);
        else if (arg == "--round") a.run.per_round = int_value(arg, value);
        else if (arg == "--population") a.run.population = int_value(arg, value);
        else if (arg == "--minutes") a.run.minutes = std::atof(value.c_str());
        else if (arg == "--target") a.run.target = Halide::Target(value);
        else if (arg == "--parallelism") a.run.parallelism = int_value(arg, value);
        else if (arg == "--model") a.run.model = value;
        else usage("unknown option " + arg);
    }
    if (a.run.out.empty()) usage("needs --out FILE");
    if (a.run.programs < 1 || a.run.per_round < 1 || a.run.population < 1 || a.run.parallelism < 1) {
        usage("--programs, --round, --population and --parallelism must be at least 1");
    }
    return a;
}

}  // namespace

int main(int argc, char **argv) {
    try {
        if (argc == 3 && std::string(argv[1]) == "--summary") return summarise(argv[2]);
        Args args = parse(argc, argv);
        args.run.options = ansor::Options::from_environment();
        // Random seeds unless only --suite or --apps was asked for.
        if (args.seeds_given || !(args.suite || args.apps)) {
            args.run.specs = ansor_corpus::random_specs(args.first, args.last, args.stages, args.max_size, args.min_size);
        }
        if (args.suite) {
            for (auto &spec : ansor_corpus::suite_specs()) args.run.specs.push_back(spec);
        }
        if (args.apps) {
            for (auto &spec : ansor_corpus::app_specs()) args.run.specs.push_back(spec);
        }
        args.run.stop_requested = [] { return stop.load(); };
        // SA_RESTART: system calls of the measurer (read, waitpid) resume after the signal.
        struct sigaction action {};
        action.sa_handler = on_signal;
        action.sa_flags = SA_RESTART;
        sigaction(SIGINT, &action, nullptr);
        sigaction(SIGTERM, &action, nullptr);
        const ansor_corpus::CorpusRunStats s = ansor_corpus::run_corpus(args.run);
        std::printf("%s: %zu pipelines appended (%zu failed), %zu programs (%zu ok) in %.0f s; %zu of %zu complete%s\n",
                    args.run.out.c_str(), s.done, s.failed_pipelines, s.programs, s.ok, s.seconds, s.already + s.done,
                    s.total, s.stopped ? " (stopped early; run again to continue)" : "");
    } catch (const ansor::UserError &e) {
        std::fprintf(stderr, "ansor_corpus: %s\n", e.what());
        return 1;
    }
    return 0;
}
