#pragma once
// How much a measuring child may use (the values of resource_limits.h's
// limits), from what it is asked to do.
#include "measure/resource_limits.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace ansor {

// CPU time per second of wall-clock timeout per thread it may keep busy: a
// child compiles (one thread) for up to its timeout and runs (`threads`
// threads) for up to its timeout, so this allows twice what it can use.
constexpr double kCpuSecondsPerTimeoutSecond = 2;
// Tasks a child may start beyond what its user runs when it starts, besides
// the threads of the children around it.
constexpr uint64_t kTaskAllowance = 1024;
// Tasks of a child beyond its threads (the compiler and linker it runs).
constexpr uint64_t kTasksPerChildBesideThreads = 8;

// A child that may spend `timeout_s` compiling and again running with
// `threads` threads, while up to `children_at_once` such children live,
// in `working_dir`; it may map `memory_limit_bytes` (0: no limit) beyond
// what it inherits, and write no file larger than that.
SandboxLimits measuring_child_limits(uint64_t memory_limit_bytes, double timeout_s, int threads,
                                     size_t children_at_once, const std::string &working_dir);

}  // namespace ansor
