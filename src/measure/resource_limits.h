#pragma once
// The resource limits of a sandboxed measuring child (sandbox.h), set with
// setrlimit right after the fork. They are inherited by whatever the child
// forks or executes (the C compiler, ansor_runner), each process with
// its own CPU-time account.
//
//  - RLIMIT_CORE 0: a crashing candidate writes no core file. (A
//    core_pattern that pipes to a handler, such as systemd-coredump or
//    apport, still starts the handler: the kernel hands it the limit, and
//    those handlers store nothing under a limit of 0.)
//  - RLIMIT_CPU: SIGXCPU at `cpu_seconds` of CPU time, SIGKILL a few
//    seconds later; a backstop behind the parent's wall-clock deadlines,
//    for a process that escaped them.
//  - RLIMIT_FSIZE: a write past `file_size_bytes` in one file fails with
//    SIGXFSZ (no file a candidate legitimately writes, a copy of a buffer or
//    a compiled program, is larger than what it may map).
//  - RLIMIT_NPROC: this user's tasks (processes and threads) when the child
//    starts plus `extra_tasks`, so a fork bomb stops there. The kernel
//    counts per user, not per child, and does not enforce the limit for
//    root or a process with CAP_SYS_RESOURCE or CAP_SYS_ADMIN: a tuner run
//    as root has no process cap (its candidates still die with their group
//    at the deadline). It is not set for root.
//  - RLIMIT_AS: the address space the child inherited plus `memory_limit_bytes`.
#include <cstdint>
#include <string>
#include <sys/types.h>

namespace ansor {

struct SandboxLimits {
    uint64_t memory_limit_bytes = 0;  // 0: no limit (also for the fields below)
    uint64_t cpu_seconds = 0;
    uint64_t file_size_bytes = 0;
    uint64_t extra_tasks = 0;
    std::string working_dir;  // the child's working directory; "": the tuner's
};

// How long after SIGXCPU the kernel sends SIGKILL.
constexpr uint64_t kCpuLimitGraceSeconds = 5;

// In the child after fork(): sets the limits above. Never raises a limit.
void limit_resources(const SandboxLimits &limits);

// The tasks (processes and threads) `uid` runs now, as /proc shows them.
uint64_t tasks_of_user(uid_t uid);

// " (its CPU time limit)" for SIGXCPU, " (its file size limit)" for
// SIGXFSZ, else "": what a signal that ended a child says about the limits.
std::string resource_limit_note(int signal);

}  // namespace ansor
