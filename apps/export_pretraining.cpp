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
#include "cli.h"
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

Args parse(int argc, char **argv) {
    Args a;
    ansor_cli::Parser p("ansor_export_pretraining", "Featurised suite programs of tuning logs for pretraining the cost model.");
    p.positional("LOG", &a.logs, "tuning logs").whole();
    p.option("--out", &a.out, "the pretraining set written", "FILE").required();
    p.option("--cap", &a.cap, "programs kept per pipeline, at least 1");
    p.option("--target", &a.target, "the target whose records are read", "T");
    p.parse(argc, argv);
    if (a.cap == 0) p.fail("--cap must be at least 1");
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
