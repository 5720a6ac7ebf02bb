// ansor_tune_tasks: tunes the tasks of a task file together under one trial
// budget with ansor::NetworkTuner (src/network/, docs/tuning_networks.md).
// Every measurement is appended to the tuning log, so that building a
// generator afterwards with HL_ANSOR_LOG=<log> HL_ANSOR_TRIALS=0 applies the
// best program found, and a second run resumes.
//
//   ansor_tune_tasks --tasks networks/resnet50.json --log resnet50.jsonl --trials 1000
//       [--policy gradient|round-robin] [--objective f1|f2|f3|f4] [--seed 0]
//       [--csv units.csv] [--model per-task|family|monolithic] [--families generator|structure]
//       [--foresee K] [--early-stopping K] [--alpha A] [--beta B] [--window DT] [--epsilon E]
//       [--parallelism P]
//   ansor_tune_tasks --generator conv2d_bias_act --param N=1 --param H=56 ... --log L --trials 200
//       (one pipeline: a task file of one task)
//
// Started by mpirun (docs/distributed_tuning.md), rank 0 runs all of the
// above and is the only writer of the log; every other rank builds and
// measures the candidates rank 0 sends it (distributed/).
#include "tune_tasks_args.h"
#include "tune_tasks_distributed.h"

#include "network/network_tuner.h"
#include "util/errors.h"

#include <cstdio>
#include <stdexcept>

using namespace ansor_tasks;

int main(int argc, char **argv) {
    const TuneTasksArgs args = parse_tune_tasks_args(argc, argv);
    try {
        ansor::TuningSetup setup = tuning_setup(args);
        DistributedRun distributed = start_distributed(&argc, &argv, args, setup);
        if (distributed.worker_exit) return *distributed.worker_exit;

        ansor::NetworkTunerSettings settings = tuner_settings(args, setup);
        if (distributed.workers) settings.measurers = remote_measurers(*distributed.workers, setup.parallelism);
        ansor::NetworkTuner tuner(task_file(args), setup, std::move(settings));
        if (args.list) {
            tuner.list();
            return 0;
        }
        tuner.tune();
        tuner.report();
        if (!args.stats.empty()) {
            write_stats(args.stats, tuner.seconds_since_first_unit(), tuner.trials_this_run(), distributed);
        }
        if (distributed.workers) print_worker_summary(*distributed.workers);
        return 0;
    } catch (const ansor::UserError &e) {
        std::fprintf(stderr, "ansor_tune_tasks: %s\n", e.what());
        return 1;
    } catch (const std::invalid_argument &e) {
        std::fprintf(stderr, "ansor_tune_tasks: %s\n", e.what());
        return 1;
    }
}
