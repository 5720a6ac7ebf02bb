#include "measure/child_limits.h"

#include <algorithm>
#include <cmath>

namespace ansor {

SandboxLimits measuring_child_limits(uint64_t memory_limit_bytes, double timeout_s, int threads,
                                     size_t children_at_once, const std::string &working_dir) {
    const uint64_t busy_threads = 1 + (uint64_t)std::max(1, threads);
    SandboxLimits l;
    l.memory_limit_bytes = memory_limit_bytes;
    l.file_size_bytes = memory_limit_bytes;
    l.cpu_seconds = (uint64_t)std::ceil(kCpuSecondsPerTimeoutSecond * std::max(1.0, timeout_s) * (double)busy_threads);
    l.extra_tasks = kTaskAllowance + (uint64_t)std::max<size_t>(1, children_at_once) * (busy_threads + kTasksPerChildBesideThreads);
    l.working_dir = working_dir;
    return l;
}

}  // namespace ansor
