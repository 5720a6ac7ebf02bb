#pragma once
// ansor_tune_tasks' command line (docs/tuning_networks.md) and what the
// tool makes of it: the TuningSetup, the task file and the NetworkTuner's
// settings.
#include "network/network_tuner_settings.h"
#include "network/task_file.h"
#include "network/task_run.h"
#include "util/target.h"

#include <cstdint>
#include <optional>
#include <string>

namespace ansor_tasks {

struct TuneTasksArgs {
    std::string tasks, log, csv;
    int trials = 0;
    std::string policy = "gradient", objective = "f1", model = "per-task", families = "generator";
    uint64_t seed = 0;
    int foresee = 0;
    std::optional<int> early_stopping;
    ansor::TaskSchedulerOptions scheduler;
    int parallelism = 2;
    std::string target = ansor::project_cpu_target();
    bool list = false;  // print the tasks and stop
    // One pipeline instead of a task file (--generator, --param K=V ...).
    std::string generator;
    ansor::GeneratorParamValues params;
    // Distributed runs: how long rank 0 waits for the workers' hellos, and
    // for a word from a worker before it takes it for dead.
    double worker_hello_s = 60, worker_silence_s = 30;
    std::string stats;  // JSON file of the run's throughput and the workers' chunk timings
};

// A bad command line (or an HL_ANSOR_* variable a flag replaces) prints the
// problem and the usage and exits with status 2; --help prints the usage.
TuneTasksArgs parse_tune_tasks_args(int argc, char **argv);

// Throws UserError for a malformed HL_ANSOR_* variable.
ansor::TuningSetup tuning_setup(const TuneTasksArgs &args);

// --tasks' file, or with --generator a task file of that one pipeline, named
// after its generator. Throws std::invalid_argument naming what is malformed.
ansor::TaskFile task_file(const TuneTasksArgs &args);

ansor::NetworkTunerSettings tuner_settings(const TuneTasksArgs &args, const ansor::TuningSetup &setup);

}  // namespace ansor_tasks
