#include "worker_process.h"

#include "worker_protocol.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <poll.h>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ansor_harness {

namespace {

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Pipes {
    int command[2] = {-1, -1};  // parent writes [1], child reads [0]
    int answer[2] = {-1, -1};   // child writes [1], parent reads [0]
};

Pipes make_pipes() {
    Pipes p;
    if (pipe(p.command) != 0 || pipe(p.answer) != 0) {
        throw std::runtime_error(std::string("cannot create a pipe for a worker: ") + std::strerror(errno));
    }
    return p;
}

// In the child: stdin/stdout become the pipes; its own process group; it
// dies with the harness. Being in a group of its own, a worker gets no
// Ctrl-C and no kill of the harness's group: without the death signal a
// worker of a killed harness would go on tuning or timing for minutes.
// The signal follows the harness thread that forked it, which here is the
// main thread, alive as long as the harness.
void become_worker(const Pipes &p, pid_t harness) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != harness) _exit(1);  // the harness died before the signal was armed
    dup2(p.command[0], STDIN_FILENO);
    dup2(p.answer[1], STDOUT_FILENO);
    for (int fd : {p.command[0], p.command[1], p.answer[0], p.answer[1]}) close(fd);
    // The harness going away must not leave a worker blocked on a dead pipe.
    signal(SIGPIPE, SIG_DFL);
}

}  // namespace

WorkerProcess::WorkerProcess(std::string label, int pid, int to_child, int from_child)
    : label_(std::move(label)), pid_(pid), to_child_(to_child), from_child_(from_child) {
    // Set here too: whichever of parent and child runs first, the group
    // exists before the parent may need to kill it.
    setpgid(pid_, pid_);
}

std::unique_ptr<WorkerProcess> WorkerProcess::fork_function(const std::string &label, const std::function<int()> &body) {
    Pipes p = make_pipes();
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t harness = getpid();
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
    if (pid == 0) {
        become_worker(p, harness);
        int rc = 1;
        try {
            rc = body();
        } catch (const std::exception &e) {
            std::fprintf(stderr, "[%s] %s\n", label.c_str(), e.what());
        }
        std::fflush(stdout);
        std::fflush(stderr);
        // _exit: no atexit handlers or static destructors of the parent's copy.
        _exit(rc);
    }
    close(p.command[0]);
    close(p.answer[1]);
    return std::unique_ptr<WorkerProcess>(new WorkerProcess(label, pid, p.command[1], p.answer[0]));
}

std::unique_ptr<WorkerProcess> WorkerProcess::spawn(const std::string &label, const std::vector<std::string> &argv,
                                                    const std::vector<std::pair<std::string, std::string>> &env) {
    if (argv.empty()) throw std::invalid_argument("spawn: empty command");
    Pipes p = make_pipes();
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t harness = getpid();
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
    if (pid == 0) {
        become_worker(p, harness);
        for (const auto &kv : env) setenv(kv.first.c_str(), kv.second.c_str(), 1);
        std::vector<char *> args;
        for (const auto &a : argv) args.push_back(const_cast<char *>(a.c_str()));
        args.push_back(nullptr);
        execv(args[0], args.data());
        std::fprintf(stderr, "[%s] cannot execute %s: %s\n", label.c_str(), argv[0].c_str(), std::strerror(errno));
        _exit(127);
    }
    close(p.command[0]);
    close(p.answer[1]);
    return std::unique_ptr<WorkerProcess>(new WorkerProcess(label, pid, p.command[1], p.answer[0]));
}

WorkerProcess::~WorkerProcess() {
    if (alive()) kill_group();
    if (to_child_ >= 0) close(to_child_);
    if (from_child_ >= 0) close(from_child_);
}

bool WorkerProcess::send(const std::string &line) {
    if (!alive()) return false;
    std::string data = line + "\n";
    // A dead reader gives EPIPE (the harness ignores SIGPIPE).
    size_t done = 0;
    while (done < data.size()) {
        ssize_t n = write(to_child_, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += (size_t)n;
    }
    return true;
}

std::string WorkerProcess::died_reason() {
    // Wait for the exit without reaping it: while the leader is a zombie its
    // process-group id cannot be reused, so the group kill below reaches only
    // what the worker started (its measurement children, if any).
    siginfo_t info;
    std::memset(&info, 0, sizeof(info));
    waitid(P_PID, (id_t)pid_, &info, WEXITED | WNOWAIT);
    ::kill(-pid_, SIGKILL);
    int status = 0;
    pid_t r = waitpid(pid_, &status, 0);
    pid_ = -1;
    if (r < 0) return "worker lost";
    if (WIFEXITED(status)) return "worker exited with status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        return std::string("worker killed by signal ") + std::to_string(sig) + " (" + strsignal(sig) + ")";
    }
    return "worker ended";
}

Reply WorkerProcess::wait_reply(double timeout_s) {
    if (!alive()) return {Reply::Kind::Died, "worker not running"};
    const double deadline = now_s() + timeout_s;
    for (;;) {
        size_t nl;
        while ((nl = pending_.find('\n')) != std::string::npos) {
            std::string line = pending_.substr(0, nl);
            pending_.erase(0, nl + 1);
            if (line.compare(0, kReplyPrefix.size(), kReplyPrefix) == 0) {
                return {Reply::Kind::Answer, line.substr(kReplyPrefix.size())};
            }
            std::fprintf(stderr, "[%s] %s\n", label_.c_str(), line.c_str());
        }
        double left = deadline - now_s();
        if (left <= 0) {
            kill_group();
            return {Reply::Kind::Timeout, "no answer within " + std::to_string((int)timeout_s) + " s"};
        }
        pollfd pfd{from_child_, POLLIN, 0};
        int ready = poll(&pfd, 1, (int)std::min(left * 1000.0 + 1, 1e9));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) continue;
        char buf[4096];
        ssize_t n = read(from_child_, buf, sizeof(buf));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return {Reply::Kind::Died, died_reason()};
        pending_.append(buf, (size_t)n);
    }
}

Reply WorkerProcess::ask(const std::string &line, double timeout_s) {
    if (!send(line)) {
        if (!alive()) return {Reply::Kind::Died, "worker not running"};
        // The pipe broke: the worker is dying; collect why.
        return {Reply::Kind::Died, died_reason()};
    }
    return wait_reply(timeout_s);
}

void WorkerProcess::stop() {
    if (!alive()) return;
    send("quit");
    const double deadline = now_s() + 10;
    while (now_s() < deadline) {
        siginfo_t info;
        std::memset(&info, 0, sizeof(info));
        if (waitid(P_PID, (id_t)pid_, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid_) {
            kill_group();  // it exited; reap it and anything it left behind
            return;
        }
        usleep(10000);
    }
    kill_group();
}

void WorkerProcess::kill_group() {
    if (pid_ <= 0) return;
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
}

}  // namespace ansor_harness
