#pragma once
// ansor_tune_tasks under mpirun (docs/distributed_tuning.md): rank 0 tunes
// and is the only writer of the log; every other rank builds and measures
// the candidates rank 0 sends it (distributed/).
#include "tune_tasks_args.h"

#include "distributed/transport.h"
#include "distributed/worker_pool.h"

#include "network/network_tuner_settings.h"

#include <memory>
#include <optional>
#include <string>

namespace ansor_tasks {

struct DistributedRun {
    std::unique_ptr<Transport> transport;  // none without mpirun
    // Declared after the transport: it stops the workers before MPI finalises.
    std::unique_ptr<WorkerPool> workers;
    // Set on a worker rank once it has measured all rank 0 sent: its exit status.
    std::optional<int> worker_exit;
};

// Without mpirun, nothing. On a worker rank, measures until rank 0 is done.
// On rank 0 with workers, starts their pool and sets setup.measure_host to
// the machines that measure.
DistributedRun start_distributed(int *argc, char ***argv, const TuneTasksArgs &args, ansor::TuningSetup &setup);

// Gives each task a measurer that sends its candidates to the pool's workers.
ansor::TaskMeasurers remote_measurers(WorkerPool &workers, int parallelism);

// --stats: the run's throughput and, distributed, the pool's counts and
// every answered chunk's timings: the input of
// scripts/simulate_distributed_tuning.py. Throws UserError naming `path`.
void write_stats(const std::string &path, double wall_s, int trials, const DistributedRun &run);

// The pool's counts and its workers, on stdout.
void print_worker_summary(const WorkerPool &workers);

}  // namespace ansor_tasks
