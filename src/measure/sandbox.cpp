#include "measure/sandbox.h"

#include "measure/measure_child.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <vector>

namespace ansor {

namespace {

// The pid of a sandboxed process about to fork (set by the atfork prepare
// handler, read in the new child).
pid_t forking_pid = 0;

void remember_forking_pid() { forking_pid = getpid(); }

// A process forked inside the sandbox dies with the process that forked it.
void die_with_parent() {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != forking_pid) _exit(1);
}

void raise_oom_score() {
    int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
    if (fd < 0) return;
    const char most[] = "1000";
    ssize_t ignored = write(fd, most, sizeof(most) - 1);
    (void)ignored;
    close(fd);
}

void stdin_from_dev_null() {
    int fd = open("/dev/null", O_RDONLY);
    if (fd < 0) return;
    dup2(fd, 0);
    if (fd != 0) close(fd);
}

void sleep_s(double s) {
    timespec t{(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&t, &t) < 0 && errno == EINTR) {
    }
}

// Children killed but not reaped in time (a process stuck in the kernel);
// each later reap call tries them again.
std::mutex stragglers_mutex;
std::vector<pid_t> stragglers;

void reap_stragglers() {
    std::lock_guard<std::mutex> lock(stragglers_mutex);
    stragglers.erase(std::remove_if(stragglers.begin(), stragglers.end(),
                                    [](pid_t p) {
                                        int status = 0;
                                        pid_t r = waitpid(p, &status, WNOHANG);
                                        return r == p || (r < 0 && errno == ECHILD);
                                    }),
                     stragglers.end());
}

}  // namespace

void enter_sandbox(const SandboxLimits &limits, pid_t tuner) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != tuner) _exit(1);  // the tuner died before the signal was armed
    pthread_atfork(remember_forking_pid, nullptr, die_with_parent);
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    raise_oom_score();
    limit_resources(limits);
    stdin_from_dev_null();
    if (!limits.working_dir.empty() && chdir(limits.working_dir.c_str()) != 0) {
        std::printf("error: cannot work in the scratch directory %s: %s\n", limits.working_dir.c_str(),
                    std::strerror(errno));
        std::fflush(stdout);
        _exit(0);
    }
}

bool has_running_children() {
    for (;;) {
        int status = 0;
        pid_t r = waitpid(-1, &status, WNOHANG);
        if (r > 0 || (r < 0 && errno == EINTR)) continue;
        return r == 0;  // 0: children, none ended; -1 (ECHILD): no children
    }
}

void adopt_group(pid_t child) {
    // EACCES/ESRCH: the child already moved itself, or already exited.
    setpgid(child, child);
}

bool wait_exited(pid_t child, double deadline_s) {
    double nap = 0.0005;
    for (;;) {
        siginfo_t info{};
        int r = waitid(P_PID, (id_t)child, &info, WEXITED | WNOHANG | WNOWAIT);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return true;  // ECHILD: already reaped (SIGCHLD ignored by the host program)
        if (info.si_pid == child) return true;
        const double left = deadline_s - steady_now_s();
        if (left <= 0) return false;
        sleep_s(std::min(nap, left));
        nap = std::min(nap * 2, 0.02);
    }
}

void kill_group(pid_t child) {
    kill(-child, SIGKILL);
    kill(child, SIGKILL);  // in case it never became a group leader
}

int reap(pid_t child, double grace_s) {
    reap_stragglers();
    int status = 0;
    if (wait_exited(child, steady_now_s() + grace_s)) {
        pid_t r;
        while ((r = waitpid(child, &status, WNOHANG)) < 0 && errno == EINTR) {
        }
        if (r == child) return status;
        if (r < 0) return status;  // ECHILD: reaped elsewhere
    }
    std::lock_guard<std::mutex> lock(stragglers_mutex);
    stragglers.push_back(child);
    return SIGKILL;  // as WIFSIGNALED / WTERMSIG read it
}

}  // namespace ansor
