#pragma once
// The process sandbox every measuring child of ForkMeasurer runs in (the
// reference, every candidate, and every parallel builder alike).
//
// The child, right after fork() (enter_sandbox):
//  - leads a process group of its own, so that the parent can kill it
//    together with any process it started;
//  - gets SIGKILL when the tuner's forking thread ends (PR_SET_PDEATHSIG),
//    and exits at once if the tuner already died before that was set; a
//    process the child forks gets the same from its own parent (a
//    pthread_atfork handler), so a tuner killed with kill -9 leaves no
//    candidate process behind;
//  - is the subreaper of every process it starts (PR_SET_CHILD_SUBREAPER),
//    so that before its result it can tell whether any still runs
//    (has_running_children);
//  - is the OOM killer's first choice (oom_score_adj 1000), not the tuner;
//  - runs under resource_limits.h's limits: address space (an allocation
//    without bound fails in the child instead of exhausting the machine),
//    CPU time, file size, tasks, and no core file;
//  - works in a private scratch directory the parent made (and removes
//    once the child ended), so that nothing it writes by a relative path
//    lands in the user's directory;
//  - reads stdin from /dev/null.
// The parent (the other functions) ends a child by killing its whole group,
// and never waits for one without a bound.
#include "measure/resource_limits.h"

#include <sys/types.h>

#include <cstdint>

namespace ansor {

// In the child after fork(); `tuner` is the pid of the process that forked it.
void enter_sandbox(const SandboxLimits &limits, pid_t tuner);

// In the sandboxed child: reaps its ended children and says whether any
// process it started (directly or not) still runs.
bool has_running_children();

// In the parent after fork(): makes the child a group leader from this side
// too, since either side may run first.
void adopt_group(pid_t child);

// Waits until the child has exited (without reaping it) or the steady clock
// passes deadline_s; true if it exited.
bool wait_exited(pid_t child, double deadline_s);

// SIGKILL to the child's whole process group. Call it before reaping the
// child: while the child is unreaped its group id cannot be reused.
void kill_group(pid_t child);

// Reaps a child that exited or was sent SIGKILL, waiting grace_s at most; its wait
// status, or a SIGKILL status if it could not be reaped in time (it is then
// reaped by a later call to reap).
int reap(pid_t child, double grace_s);

}  // namespace ansor
