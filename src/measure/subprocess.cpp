#include "measure/subprocess.h"

#include "measure/resource_limits.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ansor {

std::string ProcessResult::describe() const {
    if (signal) return "signal " + std::to_string(signal) + resource_limit_note(signal);
    return "exit code " + std::to_string(exit_code);
}

ProcessResult run_process(const std::vector<std::string> &argv, const std::vector<std::string> &env) {
    ProcessResult r;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        r.output = std::string("cannot create a pipe: ") + std::strerror(errno);
        return r;
    }
    std::vector<char *> args;
    for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        r.output = std::string("cannot fork: ") + std::strerror(errno);
        return r;
    }
    if (pid == 0) {
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        for (const std::string &e : env) putenv(const_cast<char *>(e.c_str()));
        execvp(args[0], args.data());
        std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
        std::fflush(stderr);
        _exit(127);
    }
    close(fds[1]);
    char buf[4096];
    for (;;) {
        ssize_t n = read(fds[0], buf, sizeof(buf));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        if (r.output.size() < (1 << 20)) r.output.append(buf, (size_t)n);
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
    return r;
}

}  // namespace ansor
