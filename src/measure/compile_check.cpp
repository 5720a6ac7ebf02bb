#include "measure/compile_check.h"

#include "measure/child_limits.h"
#include "measure/measure_child.h"
#include "measure/pipeline_runner.h"
#include "measure/sandbox.h"
#include "measure/temp_dirs.h"
#include "util/errors.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ansor {

namespace {

constexpr const char *kCompiledLine = "compile check: compiled";

// The child: compiles the scheduled copy into `object` and says so on
// stdout; Halide's errors and crashes reach the parent there too.
[[noreturn]] void compile_in_child(const PipelineDAG &dag, const State &state, const Halide::Target &target,
                                   const std::string &object) {
    try {
        Halide::Pipeline p = scheduled_pipeline(dag, &state);
        p.compile_to_object(object, p.infer_arguments(), "ansor_compile_check", target);
        std::printf("%s\n", kCompiledLine);
    } catch (const Halide::Error &e) {
        std::printf("error: %s\n", e.what());
    } catch (const std::exception &e) {
        std::printf("error: %s\n", e.what());
    }
    std::fflush(stdout);
    _exit(0);
}

// What the child wrote until it ended or the deadline passed; `ended` says which.
std::string read_until(int fd, pid_t child, double deadline_s, bool &ended) {
    std::string out;
    char buf[4096];
    ended = false;
    while (true) {
        const double left = deadline_s - steady_now_s();
        if (left <= 0) return out;
        pollfd p{fd, POLLIN, 0};
        const int r = poll(&p, 1, (int)std::min(left * 1000 + 1, 1000.0));
        if (r < 0 && errno != EINTR) break;
        if (r <= 0) continue;
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n > 0) {
            out.append(buf, (size_t)n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        break;  // end of file: every writer is gone
    }
    ended = wait_exited(child, deadline_s);
    return out;
}

std::string first_lines(const std::string &text, size_t most) {
    size_t at = 0;
    for (size_t line = 0; line < most && at != std::string::npos; line++) {
        at = text.find('\n', at == 0 ? 0 : at + 1);
    }
    std::string s = at == std::string::npos ? text : text.substr(0, at);
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
}

}  // namespace

CompileCheck check_compiles(const PipelineDAG &dag, const State &state, const Halide::Target &target,
                            double timeout_s, uint64_t memory_limit_bytes) {
    CompileCheck result;
    // The parent owns the scratch directory, so that a child killed at the
    // time limit leaves nothing behind.
    TempDir scratch;
    try {
        scratch = TempDir("ansor-compile-check");
    } catch (const UserError &e) {
        result.error = e.what();
        return result;
    }
    const std::string &dir = scratch.path();
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        result.error = std::string("cannot create a pipe for the compile check: ") + std::strerror(errno);
        return result;
    }
    std::fflush(stdout);
    std::fflush(stderr);
    const double start = steady_now_s();
    const pid_t tuner = getpid();
    const pid_t pid = fork();
    if (pid < 0) {
        const int error = errno;
        close(fds[0]);
        close(fds[1]);
        result.error = std::string("cannot fork the compile check: ") + std::strerror(error);
        return result;
    }
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        enter_sandbox(measuring_child_limits(memory_limit_bytes, timeout_s, 1, 1, dir), tuner);
        compile_in_child(dag, state, target, dir + "/program.o");
    }
    adopt_group(pid);
    close(fds[1]);
    bool ended = false;
    const std::string output = read_until(fds[0], pid, start + timeout_s, ended);
    close(fds[0]);
    kill_group(pid);
    const int status = reap(pid, 5);
    result.seconds = steady_now_s() - start;
    if (!ended) {
        result.timed_out = true;
        result.error = "did not compile in " + std::to_string((int)timeout_s) + " s";
    } else if (output.find(kCompiledLine) != std::string::npos) {
        result.ok = true;
    } else if (WIFSIGNALED(status)) {
        result.error = "the compiler died of signal " + std::to_string(WTERMSIG(status)) + ": " + first_lines(output, 3);
    } else {
        const size_t at = output.find("error: ");
        result.error = first_lines(at == std::string::npos ? output : output.substr(at + 7), 3);
        if (result.error.empty()) result.error = "the compile check ended without a word";
    }
    return result;
}

}  // namespace ansor
