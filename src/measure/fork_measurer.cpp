// The parent's side of ForkMeasurer: forks the children of a batch, lets up
// to `builders` of them compile at once, and releases the compiled ones to
// run one at a time while nothing compiles (measure_child.cpp is the child).
#include "measure/measure_child.h"
#include "measure/measurer.h"
#include "measure/runnability.h"
#include "util/errors.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ansor {

namespace {

// A default round (HL_ANSOR_MEASURES_PER_ROUND) compiles in one phase.
constexpr size_t kMinCompiledWindow = 16;

size_t reference_bytes(const PipelineDAG &dag) {
    size_t n = 0;
    for (const auto &o : dag.outputs()) {
        const Node &node = dag.node(*dag.index_of(o.name()));
        size_t points = 1;
        for (const auto &r : node.region) points *= (size_t)std::max<int64_t>(1, r.extent);
        for (const auto &t : o.output_types()) n += points * t.bytes();
    }
    return n;
}

// One forked child, as the parent sees it.
struct Child {
    size_t index = 0;  // its candidate's place in the batch
    pid_t pid = -1;    // -1 once reaped
    int fd = -1;       // the parent's end of its socket: its output comes in, the go byte goes out
    std::string output;
    TimeSpan compile, run;
};

// Appends what the child wrote; false at end of file (it exited).
bool read_output(Child &c) {
    char buf[4096];
    for (;;) {
        ssize_t n = read(c.fd, buf, sizeof(buf));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        c.output.append(buf, n);
        if (c.output.size() > (1 << 20)) c.output.erase(0, c.output.size() - (1 << 16));
        return true;
    }
}

// Closes the socket and waits for the child to end (killing it first if
// asked); returns its wait status.
int reap(Child &c, bool kill_first) {
    if (c.pid < 0) return 0;
    if (kill_first) kill(c.pid, SIGKILL);
    close(c.fd);
    int status = 0;
    while (waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
    }
    c.pid = -1;
    c.fd = -1;
    return status;
}

std::string seconds_text(double s) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%g", s);
    return buf;
}

// `timed_out_while`: the phase it ran out of time in, or nullptr.
MeasureResult result_of(const Child &c, int status, const char *timed_out_while, double timeout_s) {
    MeasureResult r;
    if (timed_out_while) {
        r.error = std::string("timed out ") + timed_out_while + " after " + seconds_text(timeout_s) + " s";
    } else {
        r = parse_child_output(c.output, status);
    }
    r.compile = c.compile;
    r.run = c.run;
    r.seconds = c.compile.seconds() + std::max(0.0, c.run.seconds());
    return r;
}

std::vector<int> open_sockets(const std::vector<Child> &a, const std::vector<Child> &b) {
    std::vector<int> fds;
    for (const auto *list : {&a, &b}) {
        for (const Child &c : *list) fds.push_back(c.fd);
    }
    return fds;
}

}  // namespace

size_t ForkMeasurer::compiled_window(int builders) {
    return builders <= 1 ? 1 : std::max(kMinCompiledWindow, (size_t)builders);
}

ForkMeasurer::ForkMeasurer(const PipelineDAG &dag, MeasureOptions options) : dag_(dag), options_(std::move(options)) {
    if (options_.builders < 1) {
        throw UserError("MeasureOptions::builders must be at least 1, not " + std::to_string(options_.builders));
    }
    std::vector<std::string> obstacles = measurement_obstacles(dag);
    if (!obstacles.empty()) {
        std::string why = obstacles[0];
        for (size_t i = 1; i < obstacles.size(); i++) why += "; " + obstacles[i];
        throw MeasurementUnavailable(why);
    }
    shared_bytes_ = std::max<size_t>(reference_bytes(dag), 1);
    shared_ = mmap(nullptr, shared_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared_ == MAP_FAILED) throw std::runtime_error("cannot map shared memory for the reference output");
    // The unscheduled reference is far slower than a tuned candidate (a
    // 1024^3 matmul at root takes seconds; more on a loaded machine), and
    // without it nothing can be measured, so it gets ten candidates' time.
    reference_ = measure_batch({nullptr}, 1, 10 * options_.timeout_s)[0];
    if (!reference_.ok) {
        throw MeasurementUnavailable("the reference (every Func at root) failed on inputs of the measured sizes: " +
                                     reference_.error);
    }
}

ForkMeasurer::~ForkMeasurer() {
    if (shared_ && shared_ != MAP_FAILED) munmap(shared_, shared_bytes_);
}

std::vector<MeasureResult> ForkMeasurer::measure(const std::vector<State> &states) {
    std::vector<const State *> batch;
    for (const State &s : states) batch.push_back(&s);
    return measure_batch(batch, options_.builders, options_.timeout_s);
}

namespace {

// Forks a child measuring `state`; it closes the parent's sockets to the
// other children (`others`), so that each child's socket ends with the
// child alone.
Child spawn(const PipelineDAG &dag, const State *state, const MeasureOptions &options, void *shared, size_t index,
            const std::vector<int> &others) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) throw std::runtime_error("socketpair() failed");
    std::fflush(stdout);
    std::fflush(stderr);
    Child c;
    c.index = index;
    c.compile.begin_s = steady_now_s();
    pid_t pid = fork();
    if (pid < 0) {
        close(sv[0]);
        close(sv[1]);
        throw std::runtime_error("fork() failed");
    }
    if (pid == 0) {
        close(sv[0]);
        for (int fd : others) close(fd);
        dup2(sv[1], 1);
        dup2(sv[1], 2);
        measure_child_main(dag, state, options, shared, sv[1]);
    }
    close(sv[1]);
    c.pid = pid;
    c.fd = sv[0];
    return c;
}

// Waits until a compiling child reports it compiled (it moves to
// `compiled`), ends (a failure) or runs out of time (killed, a failure).
void await_compiles(std::vector<Child> &compiling, std::vector<Child> &compiled, std::vector<MeasureResult> &results,
                    double timeout_s) {
    double first_deadline = compiling.front().compile.begin_s + timeout_s;
    std::vector<pollfd> fds;
    for (const Child &c : compiling) {
        first_deadline = std::min(first_deadline, c.compile.begin_s + timeout_s);
        fds.push_back({c.fd, POLLIN, 0});
    }
    double wait_ms = std::clamp((first_deadline - steady_now_s()) * 1000 + 1, 0.0, 1e9);
    int ready = poll(fds.data(), fds.size(), (int)wait_ms);
    if (ready < 0 && errno != EINTR) throw std::runtime_error("poll() failed");
    std::vector<Child> still;
    for (size_t i = 0; i < compiling.size(); i++) {
        Child &c = compiling[i];
        bool open = ready <= 0 || fds[i].revents == 0 || read_output(c);
        double now = steady_now_s();
        if (reports_compiled(c.output)) {
            c.compile.end_s = now;
            compiled.push_back(std::move(c));
        } else if (!open) {
            int status = reap(c, false);
            c.compile.end_s = steady_now_s();
            results[c.index] = result_of(c, status, nullptr, timeout_s);
        } else if (now >= c.compile.begin_s + timeout_s) {
            reap(c, true);
            c.compile.end_s = steady_now_s();
            results[c.index] = result_of(c, 0, "compiling", timeout_s);
        } else {
            still.push_back(std::move(c));
        }
    }
    compiling = std::move(still);
}

// Lets a compiled child run (warm-up, check, timed runs) and reaps it.
MeasureResult run_compiled(Child &c, double timeout_s) {
    c.run.begin_s = steady_now_s();
    const char go = 'g';
    const bool sent = send(c.fd, &go, 1, MSG_NOSIGNAL) == 1;  // a dead child must not SIGPIPE the tuner
    bool timed_out = false;
    while (sent) {
        double left = c.run.begin_s + timeout_s - steady_now_s();
        if (left <= 0) {
            timed_out = true;
            break;
        }
        pollfd p{c.fd, POLLIN, 0};
        int ready = poll(&p, 1, (int)std::min(left * 1000 + 1, 1e9));
        if (ready == 0) continue;
        if (ready < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (!read_output(c)) break;
    }
    int status = reap(c, timed_out || !sent);
    c.run.end_s = steady_now_s();
    return result_of(c, status, timed_out ? "running" : nullptr, timeout_s);
}

}  // namespace

std::vector<MeasureResult> ForkMeasurer::measure_batch(const std::vector<const State *> &states, int builders,
                                                       double timeout_s) {
    std::vector<MeasureResult> results(states.size());
    const size_t window = compiled_window(builders);
    std::vector<Child> compiling, compiled;
    try {
        size_t next = 0;
        while (next < states.size() || !compiling.empty() || !compiled.empty()) {
            while (next < states.size() && compiling.size() < (size_t)builders &&
                   compiling.size() + compiled.size() < window) {
                compiling.push_back(spawn(dag_, states[next], options_, shared_, next, open_sockets(compiling, compiled)));
                next++;
            }
            if (!compiling.empty()) {
                await_compiles(compiling, compiled, results, timeout_s);
                continue;
            }
            // Nothing compiles now: the compiled children run one at a time.
            std::sort(compiled.begin(), compiled.end(), [](const Child &a, const Child &b) { return a.index < b.index; });
            for (Child &c : compiled) results[c.index] = run_compiled(c, timeout_s);
            compiled.clear();
        }
    } catch (...) {
        for (Child &c : compiling) reap(c, true);
        for (Child &c : compiled) reap(c, true);
        throw;
    }
    return results;
}

}  // namespace ansor
