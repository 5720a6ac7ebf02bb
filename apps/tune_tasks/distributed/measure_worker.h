#pragma once
// A worker rank of a distributed tuning run (docs/distributed_tuning.md):
// says hello (its build, target, host CPU, cores), and once rank 0 accepts
// it, measures the chunks it is sent with its own ForkMeasurer (the sandbox
// and builders of a plain run, on this host's cores) until told to stop. A
// thread sends a heartbeat every few seconds meanwhile, so that rank 0
// tells a busy worker from a dead one.
#include "transport.h"

#include <string>

namespace ansor_tasks {

struct WorkerSetup {
    std::string target;  // the --target this rank was started with
    // Children compiling at once; 0: this host's cores (HL_ANSOR_BUILDERS
    // on the worker's host sets it as in a plain run).
    int builders = 0;
    double heartbeat_s = 2;
};

// Runs the worker until rank 0 says stop (0) or refuses it (1, after an
// error line on stderr naming the reason).
int run_measure_worker(Transport &transport, const WorkerSetup &setup);

// CPUs this process may run on (its affinity mask), at least 1.
int usable_cores();

}  // namespace ansor_tasks
