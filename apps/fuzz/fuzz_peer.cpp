#include "fuzz_peer.h"

#include "scheduled_check.h"


#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <cstring>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace ansor_fuzz {

namespace {

// The child's work: returns "" when the outputs match, else the error.
std::string run_peer(const PeerCheck &check, const random_pipeline::RandomPipelineSpec &spec,
                     const Reference &reference) {
    auto build = [&spec]() { return random_pipeline::build_random_pipeline(spec).outputs(); };
    return check_scheduled(build, check.scheduler, check.target, check.parallelism, check.tolerance, reference);
}

void write_all(int fd, const std::string &s) {
    size_t done = 0;
    while (done < s.size()) {
        ssize_t n = write(fd, s.data() + done, s.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        done += (size_t)n;
    }
}

std::string read_all(int fd) {
    std::string s;
    char buf[4096];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof(buf));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return s;
        s.append(buf, (size_t)n);
    }
}

}  // namespace

Finding check_peer(const PeerCheck &check, const random_pipeline::RandomPipelineSpec &spec,
                   const Reference &reference) {
    Finding f;
    f.scheduler = check.scheduler;
    f.seed = spec.seed;
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe() failed: " + std::string(std::strerror(errno)));
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        throw std::runtime_error("fork() failed: " + std::string(std::strerror(errno)));
    }
    if (pid == 0) {
        close(fds[0]);
        setpgid(0, 0);  // a timeout kills whatever the child started too
        // The peers' own progress output would drown the fuzzer's.
        const int null_fd = open("/dev/null", O_WRONLY);
        if (null_fd >= 0) {
            dup2(null_fd, STDOUT_FILENO);
            dup2(null_fd, STDERR_FILENO);
        }
        std::string verdict;
        try {
            verdict = run_peer(check, spec, reference);
            if (verdict.empty()) verdict = "ok";
        } catch (const std::exception &e) {
            verdict = std::string("error: ") + e.what();
            if (verdict.size() == 7) verdict += "(no message)";
        }
        // Short enough for the pipe's buffer: the parent reads only after the child ended.
        write_all(fds[1], verdict.substr(0, 4000));
        _exit(0);
    }
    close(fds[1]);
    setpgid(pid, pid);
    // The verdict is short, so the child never blocks on the pipe: poll for its end.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(check.timeout_s);
    int status = 0;
    bool timed_out = false;
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) break;
        if (r < 0 && errno != EINTR) break;
        if (std::chrono::steady_clock::now() > deadline) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            timed_out = true;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const std::string verdict = read_all(fds[0]);
    close(fds[0]);
    if (timed_out) f.detail = "timed out after " + std::to_string((int)check.timeout_s) + " s";
    else if (WIFSIGNALED(status)) f.detail = "crashed with signal " + std::to_string(WTERMSIG(status));
    else if (verdict.empty()) f.detail = "error: the child exited with status " + std::to_string(WEXITSTATUS(status)) + " and no verdict";
    else if (verdict != "ok") f.detail = verdict;
    f.outcome = classify_error(f.detail);
    return f;
}

}  // namespace ansor_fuzz
