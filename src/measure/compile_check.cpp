#include "measure/compile_check.h"

#include "measure/child_limits.h"
#include "measure/lowered_input_reads.h"
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
constexpr const char *kFunction = "ansor_compile_check";

// The child: compiles the scheduled copy into `object` and says so on
// stdout; Halide's errors and crashes reach the parent there too.
[[noreturn]] void compile_in_child(const PipelineDAG &dag, const State &state, const Halide::Target &target,
                                   const std::string &object) {
    try {
        Halide::Pipeline p = scheduled_pipeline(dag, &state);
        const Halide::Module module = p.compile_to_module(p.infer_arguments(), kFunction, target);
        if (auto over_read = find_input_over_read(module, kFunction, dag)) {
            std::printf("error: %s\n", over_read->describe().c_str());
        } else {
            module.compile({{Halide::OutputFileType::object, object}});
            std::printf("%s\n", kCompiledLine);
        }
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

struct CompileCheckRun::Child {
    // The parent owns the scratch directory, so that a child killed at the
    // time limit leaves nothing behind.
    TempDir scratch;
    pid_t pid = -1;
    int fd = -1;
    double start = 0, timeout_s = 0;
    std::string error;  // set when the child could not be started
    bool done = false;
};

CompileCheckRun::CompileCheckRun(const PipelineDAG &dag, const State &state, const Halide::Target &target,
                                 double timeout_s, uint64_t memory_limit_bytes)
    : child_(std::make_unique<Child>()) {
    Child &c = *child_;
    c.timeout_s = timeout_s;
    try {
        c.scratch = TempDir("ansor-compile-check");
    } catch (const UserError &e) {
        c.error = e.what();
        return;
    }
    const std::string &dir = c.scratch.path();
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        c.error = std::string("cannot create a pipe for the compile check: ") + std::strerror(errno);
        return;
    }
    std::fflush(stdout);
    std::fflush(stderr);
    c.start = steady_now_s();
    const pid_t tuner = getpid();
    const pid_t pid = fork();
    if (pid < 0) {
        const int error = errno;
        close(fds[0]);
        close(fds[1]);
        c.error = std::string("cannot fork the compile check: ") + std::strerror(error);
        return;
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
    c.pid = pid;
    c.fd = fds[0];
}

CompileCheckRun::~CompileCheckRun() {
    if (child_->pid > 0 && !child_->done) {
        kill_group(child_->pid);
        reap(child_->pid, 5);
    }
    if (child_->fd >= 0) close(child_->fd);
}

CompileCheck CompileCheckRun::wait() {
    Child &c = *child_;
    CompileCheck result;
    if (c.pid <= 0 || c.done) {
        result.error = c.error.empty() ? "the compile check was already collected" : c.error;
        return result;
    }
    bool ended = false;
    const std::string output = read_until(c.fd, c.pid, c.start + c.timeout_s, ended);
    close(c.fd);
    c.fd = -1;
    kill_group(c.pid);
    const int status = reap(c.pid, 5);
    c.done = true;
    result.seconds = steady_now_s() - c.start;
    if (!ended) {
        result.timed_out = true;
        result.error = "did not compile in " + std::to_string((int)c.timeout_s) + " s";
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

CompileCheck check_compiles(const PipelineDAG &dag, const State &state, const Halide::Target &target,
                            double timeout_s, uint64_t memory_limit_bytes) {
    return CompileCheckRun(dag, state, target, timeout_s, memory_limit_bytes).wait();
}

}  // namespace ansor
