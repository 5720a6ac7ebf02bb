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
#include "cli.h"
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
    std::string summary;  // --summary FILE: only summarise it
};

Args parse(int argc, char **argv) {
    Args a;
    std::string seeds, target = default_target;
    ansor_cli::Parser p("ansor_corpus", "Measures random, suite and app pipelines into a corpus file for the cost model;\n"
                                        "ansor_corpus --summary FILE summarises one.");
    p.option("--out", &a.run.out, "the corpus file appended to", "FILE");
    p.option("--seeds", &seeds, "the random pipelines' seeds (default 0-99)", "A-B");
    p.option("--stages", &a.stages, "stages per random pipeline (0: 2..16 drawn per seed)");
    p.option("--max-size", &a.max_size, "the largest input extent");
    p.option("--min-size", &a.min_size, "the smallest input extent");
    p.option("--programs", &a.run.programs, "programs measured per pipeline, >= 1");
    p.option("--round", &a.run.per_round, "programs per round, >= 1");
    p.option("--population", &a.run.population, "evolution's population, >= 1");
    p.option("--suite", &a.suite, "also the operator suite's pipelines");
    p.option("--apps", &a.apps, "also the app pipelines");
    p.option("--minutes", &a.run.minutes, "starts no pipeline after this long (0: no limit)", "M");
    p.option("--target", &target, "the target measured for", "T");
    p.option("--parallelism", &a.run.parallelism, "the DAG analysis's parallelism, >= 1");
    p.option("--model", &a.run.model, "a cost model file the search starts from", "FILE");
    p.option("--summary", &a.summary, "summarises this corpus file instead", "FILE");
    p.parse(argc, argv);
    if (!a.summary.empty()) return a;
    const std::pair<const char *, int> counts[] = {{"--stages", a.stages},       {"--max-size", a.max_size},
                                                   {"--min-size", a.min_size},   {"--programs", a.run.programs},
                                                   {"--round", a.run.per_round}, {"--population", a.run.population},
                                                   {"--parallelism", a.run.parallelism}};
    for (const auto &[name, v] : counts)
        if (v < 0 || v > 1 << 30) p.fail(std::string(name) + " needs a non-negative integer, not " + std::to_string(v));
    if (!seeds.empty()) {
        const size_t dash = seeds.find('-');
        if (dash == std::string::npos) p.fail("--seeds takes A-B, not " + seeds);
        try {
            const std::string first = seeds.substr(0, dash), last = seeds.substr(dash + 1);
            if (first.empty() || last.empty() || first.find_first_not_of("0123456789") != std::string::npos ||
                last.find_first_not_of("0123456789") != std::string::npos)
                throw std::invalid_argument(seeds);
            a.first = std::stoull(first);
            a.last = std::stoull(last);
        } catch (const std::logic_error &) {
            p.fail("--seeds takes A-B, not " + seeds);
        }
        if (a.last < a.first) p.fail("--seeds " + seeds + ": B is below A");
        a.seeds_given = true;
    }
    a.run.target = Halide::Target(target);
    if (a.run.out.empty()) p.fail("needs --out FILE");
    if (a.run.programs < 1 || a.run.per_round < 1 || a.run.population < 1 || a.run.parallelism < 1) {
        p.fail("--programs, --round, --population and --parallelism must be at least 1");
    }
    return a;
}

}  // namespace

int main(int argc, char **argv) {
    try {
        Args args = parse(argc, argv);
        if (!args.summary.empty()) return summarise(args.summary);
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
