// Writes a pretraining set (src/records/pretraining_set.h) from tuning logs
// of operator-suite programs: every suite pipeline is rebuilt in process,
// its records featurised as the search sees them (apps/program_dataset.h),
// and at most --cap programs of each pipeline kept, a seeded random subset,
// so that no pipeline dominates and a retrain stays at ~20 s
// (docs/cost_model.md, "Pretraining").
//
//   ansor_export_pretraining LOG [LOG...] --out FILE [--cap 200] [--target T]
//
// The plugin reads the file with HL_ANSOR_PRETRAIN=FILE; ansor_tuning_curve
// with --pretrain FILE. FILE must not exist yet.
#include "program_dataset.h"
#include "records/pretraining_set.h"
#include "util/errors.h"
#include "util/target.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

const char *const default_target = ansor::kAvx512Target;

struct Args {
    std::vector<std::string> logs;
    std::string out;
    size_t cap = 200;
    std::string target = default_target;
};

[[noreturn]] void usage(const std::string &problem) {
    std::fprintf(stderr, "%s\nusage: ansor_export_pretraining LOG [LOG...] --out FILE [--cap 200] [--target T]\n",
                 problem.c_str());
    std::exit(2);
}

Args parse(int argc, char **argv) {
    Args a;
    for (int i = 1; i < argc; i++) {
        std::string arg = argv[i];
        if (arg.rfind("--", 0) != 0) {
            a.logs.push_back(arg);
            continue;
        }
        if (i + 1 >= argc) usage("missing value after " + arg);
        std::string value = argv[++i];
        if (arg == "--out") a.out = value;
        else if (arg == "--cap") a.cap = std::stoul(value);
        else if (arg == "--target") a.target = value;
        else usage("unknown option " + arg);
    }
    if (a.logs.empty() || a.out.empty()) usage("needs at least one LOG and --out FILE");
    if (a.cap == 0) usage("--cap must be at least 1");
    return a;
}

// At most `cap` of n programs: a random subset drawn with seed 0, in order.
std::vector<size_t> capped_subset(size_t n, size_t cap) {
    std::vector<size_t> chosen(n);
    std::iota(chosen.begin(), chosen.end(), size_t{0});
    if (n <= cap) return chosen;
    std::mt19937_64 rng(0);
    std::shuffle(chosen.begin(), chosen.end(), rng);
    chosen.resize(cap);
    std::sort(chosen.begin(), chosen.end());
    return chosen;
}

}  // namespace

int main(int argc, char **argv) {
    Args args = parse(argc, argv);
    try {
        const Halide::Target target(args.target);
        // Parallelism 2, as the benchmarks' machine params (the DAG analysis depends on it).
        ansor_apps::ProgramDataset data = ansor_apps::load_suite_dataset(args.logs, target, 2);
        ansor::PretrainingSet set;
        set.target = target.to_string();
        for (const auto &p : data.pipelines) {
            std::vector<size_t> chosen = capped_subset(p.programs.programs(), args.cap);
            ansor::PretrainingPipeline out;
            out.key = p.hash;
            out.name = p.name;
            out.programs = p.programs.subset(chosen);
            for (size_t i : chosen) out.ms.push_back(p.ms[i]);
            std::printf("%-16s %s  %zu of %zu programs\n", p.name.c_str(), p.hash.c_str(), chosen.size(),
                        p.programs.programs());
            set.pipelines.push_back(std::move(out));
        }
        ansor::write_pretraining_set(args.out, set);
        std::printf("wrote %s: %zu programs of %zu pipelines, target %s\n", args.out.c_str(), set.programs(),
                    set.pipelines.size(), set.target.c_str());
    } catch (const ansor::UserError &e) {
        std::fprintf(stderr, "ansor_export_pretraining: %s\n", e.what());
        return 1;
    }
    return 0;
}
