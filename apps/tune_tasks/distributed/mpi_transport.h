#pragma once
// The Transport over MPI_COMM_WORLD. Only in builds with MPI
// (ANSOR_WITH_MPI); everything else in a plain run never touches MPI.
#include "transport.h"

#include <memory>

namespace ansor_tasks {

// Whether this process was started by an MPI launcher (mpirun sets its
// rank variables), so that a plain run never initialises MPI.
bool launched_by_mpi();

// Whether this build can take part in an MPI run.
bool built_with_mpi();

// Initialises MPI (threads serialised: a worker's heartbeat thread sends
// while its main thread measures) and returns the world's transport.
// Destroyed, it finalises MPI, unless skip_finalize() was called: in a job
// that lost a rank the finalize would wait for that rank forever (a killed
// one, with Open MPI 4; a stopped one, with any MPI), so every rank left
// ends without it (Open MPI's mpirun --enable-recovery then still exits
// with status 0). Throws ansor::UserError in a build without MPI. Call once.
std::unique_ptr<Transport> start_mpi(int *argc, char ***argv);

// Whether the launcher keeps the job running when a rank dies (Open MPI's
// `mpirun --enable-recovery`); without it a dead worker ends the whole job.
bool launcher_survives_rank_failure();

}  // namespace ansor_tasks
