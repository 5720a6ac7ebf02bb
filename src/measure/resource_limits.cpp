#include "measure/resource_limits.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

namespace ansor {

namespace {

// Lowers a limit to `soft` (and its hard limit to `hard`); a lower limit stays.
void lower_limit(int resource, rlim_t soft, rlim_t hard) {
    rlimit r{};
    if (getrlimit(resource, &r) != 0) return;
    if (r.rlim_max == RLIM_INFINITY || hard < r.rlim_max) r.rlim_max = hard;
    if (r.rlim_cur == RLIM_INFINITY || soft < r.rlim_cur) r.rlim_cur = soft;
    if (r.rlim_cur > r.rlim_max) r.rlim_cur = r.rlim_max;
    setrlimit(resource, &r);
}

// The address space this process has mapped now (/proc/self/statm), 0 if unknown.
uint64_t mapped_bytes() {
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char buf[64] = {0};
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0) return 0;
    unsigned long long pages = 0;
    if (std::sscanf(buf, "%llu", &pages) != 1) return 0;
    return pages * (uint64_t)sysconf(_SC_PAGE_SIZE);
}

void limit_memory(uint64_t limit) {
    if (limit == 0) return;
    const uint64_t total = mapped_bytes() + limit;
    if (total < limit) return;  // overflow: no limit
    lower_limit(RLIMIT_AS, (rlim_t)total, (rlim_t)total);
}

void limit_tasks(uint64_t extra) {
    if (extra == 0 || getuid() == 0) return;  // root: the kernel would not enforce it
    const uint64_t most = tasks_of_user(getuid()) + extra;
    lower_limit(RLIMIT_NPROC, (rlim_t)most, (rlim_t)most);
}

}  // namespace

void limit_resources(const SandboxLimits &limits) {
    lower_limit(RLIMIT_CORE, 0, 0);
    if (limits.cpu_seconds > 0) {
        lower_limit(RLIMIT_CPU, (rlim_t)limits.cpu_seconds, (rlim_t)(limits.cpu_seconds + kCpuLimitGraceSeconds));
    }
    if (limits.file_size_bytes > 0) lower_limit(RLIMIT_FSIZE, (rlim_t)limits.file_size_bytes, (rlim_t)limits.file_size_bytes);
    limit_tasks(limits.extra_tasks);
    limit_memory(limits.memory_limit_bytes);
}

uint64_t tasks_of_user(uid_t uid) {
    uint64_t tasks = 0;
    DIR *proc = opendir("/proc");
    if (!proc) return 0;
    while (dirent *e = readdir(proc)) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
        // The kernel counts by real uid, which /proc/<pid>/status shows
        // whoever owns the process's /proc entries (root, for a process
        // that changed its credentials).
        char path[64];
        std::snprintf(path, sizeof(path), "/proc/%s/status", e->d_name);
        const int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        char buf[4096];
        const ssize_t n = read(fd, buf, sizeof(buf) - 1);
        close(fd);
        if (n <= 0) continue;
        buf[n] = 0;
        const char *uid_line = std::strstr(buf, "\nUid:");
        const char *threads_line = std::strstr(buf, "\nThreads:");
        if (!uid_line || std::strtoul(uid_line + 5, nullptr, 10) != (unsigned long)uid) continue;
        const unsigned long threads = threads_line ? std::strtoul(threads_line + 9, nullptr, 10) : 1;
        tasks += threads > 0 ? threads : 1;
    }
    closedir(proc);
    return tasks;
}

std::string resource_limit_note(int signal) {
    if (signal == SIGXCPU) return " (its CPU time limit)";
    if (signal == SIGXFSZ) return " (its file size limit)";
    return "";
}

}  // namespace ansor
