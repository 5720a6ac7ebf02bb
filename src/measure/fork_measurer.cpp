// The parent's side of ForkMeasurer: forks the children of a batch, lets up
// to `builders` of them compile at once, and releases the compiled ones to
// run one at a time while nothing compiles (measure_child.cpp is the child;
// sandbox.h is what confines it).
#include "measure/child_limits.h"
#include "measure/measure_child.h"
#include "measure/measurer.h"
#include "measure/runnability.h"
#include "measure/sandbox.h"
#include "measure/temp_dirs.h"
#include "util/errors.h"
#include "util/memory_size.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
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
    TempDir scratch;  // its working directory, removed once it ended
};

// How long a killed child may take to be reaped before the tuner moves on.
constexpr double kReapGraceSeconds = 5;
// How often a running child that keeps silent is checked for having exited.
constexpr double kExitCheckMs = 100;

// Appends what the child wrote; false at end of file (every holder of the
// child's socket closed it). Keeps the tail of a flood.
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

// Reads what the child's socket holds now, without waiting.
void drain(Child &c) {
    for (int reads = 0; reads < 256; reads++) {
        pollfd p{c.fd, POLLIN, 0};
        int ready = poll(&p, 1, 0);
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0 || !read_output(c)) return;
    }
}

// How a child ended, as the parent saw it.
struct Ending {
    int status = 0;          // wait status
    bool timed_out = false;  // still running at its deadline: killed
};

// Ends a child: unless `kill_now`, waits until deadline_s for it to exit;
// then kills its process group (whatever it started dies with it), reaps
// it with a bound and closes its socket.
Ending finish(Child &c, double deadline_s, bool kill_now) {
    Ending e;
    if (c.pid < 0) return e;
    if (!kill_now) e.timed_out = !wait_exited(c.pid, deadline_s);
    kill_group(c.pid);
    e.status = reap(c.pid, kReapGraceSeconds);
    close(c.fd);
    c.pid = -1;
    c.fd = -1;
    c.scratch.reset();
    return e;
}

std::string seconds_text(double s) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%g", s);
    return buf;
}

// A candidate's text as a log and a terminal can take it: printable ASCII,
// other bytes as \xNN.
std::string printable(const std::string &text) {
    std::string out;
    for (unsigned char ch : text) {
        if ((ch >= 0x20 && ch < 0x7f) || ch == '\n' || ch == '\t') {
            out += (char)ch;
        } else {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\x%02x", ch);
            out += buf;
        }
    }
    return out;
}

bool mentions_memory(const std::string &error) {
    for (const char *sign : {"out of memory", "Out of memory", "bad_alloc", "Cannot allocate memory", "mmap", "mprotect",
                             "signal 9"}) {
        if (error.find(sign) != std::string::npos) return true;
    }
    return false;
}

// `timed_out_while`: the phase it ran out of time in, or nullptr.
MeasureResult result_of(const Child &c, const Ending &end, const char *timed_out_while, const MeasureOptions &o,
                        double timeout_s) {
    MeasureResult r;
    if (timed_out_while) {
        r.error = std::string("timed out ") + timed_out_while + " after " + seconds_text(timeout_s) + " s";
    } else {
        r = parse_child_output(c.output, end.status);
        r.error = printable(r.error);
        if (!r.ok && o.memory_limit_bytes > 0 && mentions_memory(r.error)) {
            r.error += " (a measuring process may map " + memory_size_text(o.memory_limit_bytes) +
                       " beyond the tuner's memory: HL_ANSOR_MEMORY_LIMIT)";
        }
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
    // The reference outputs, their rounding spread (pipeline_runner.h), and
    // the region of each buffer input the reference reads (measure_child.cpp).
    size_t region_bytes = 0;
    for (const InputInfo &in : dag.inputs()) region_bytes += 2 * sizeof(int64_t) * (size_t)in.dimensions;
    shared_bytes_ = std::max<size_t>(2 * reference_bytes(dag) + region_bytes, 1);
    shared_ = mmap(nullptr, shared_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared_ == MAP_FAILED) {
        shared_ = nullptr;
        throw UserError("cannot map " + memory_size_text(shared_bytes_) +
                        " of shared memory for the reference outputs: " + std::strerror(errno));
    }
    // The unscheduled reference is far slower than a tuned candidate (a
    // 1024^3 matmul at root takes seconds; more on a loaded machine), and
    // without it nothing can be measured, so it gets ten candidates' time.
    try {
        const ChildBody reference = [this](size_t, int fd) {
            measure_child_main(dag_, nullptr, options_, shared_, fd);
        };
        reference_ = measure_batch(1, reference, true, 1, 10 * options_.timeout_s)[0];
    } catch (...) {
        munmap(shared_, shared_bytes_);
        throw;
    }
    if (!reference_.ok) {
        munmap(shared_, shared_bytes_);
        shared_ = nullptr;
        throw MeasurementUnavailable("the reference (every Func at root) failed on inputs of the measured sizes: " +
                                     reference_.error);
    }
}

ForkMeasurer::~ForkMeasurer() {
    if (shared_) munmap(shared_, shared_bytes_);
}

std::vector<MeasureResult> ForkMeasurer::measure(const std::vector<State> &states) {
    const ChildBody candidate = [&](size_t i, int fd) { measure_child_main(dag_, &states[i], options_, shared_, fd); };
    return measure_batch(states.size(), candidate, false, options_.builders, options_.timeout_s);
}

std::vector<MeasureResult> ForkMeasurer::measure_children(size_t count, const ChildBody &body) {
    return measure_batch(count, body, false, options_.builders, options_.timeout_s);
}

namespace {

// Where a child's body lands: the shared reference outputs and whether this
// child writes them (the reference) or only reads them (a candidate).
struct ChildSetting {
    const MeasureOptions &options;
    void *shared;
    size_t shared_bytes;
    bool writes_reference;
    double timeout_s;         // of each phase
    size_t children_at_once;  // of the batch, at most
};

// The child's side of spawn(): enters the sandbox, makes the reference
// outputs read-only unless it writes them, and runs its body.
[[noreturn]] void run_child(const ForkMeasurer::ChildBody &body, const ChildSetting &setting, size_t index,
                            pid_t tuner, int fd, const std::vector<int> &others, const std::string &scratch) {
    for (int other : others) close(other);
    dup2(fd, 1);
    dup2(fd, 2);
    const MeasureOptions &o = setting.options;
    enter_sandbox(measuring_child_limits(o.memory_limit_bytes, setting.timeout_s, o.threads, setting.children_at_once,
                                         scratch),
                  tuner);
    if (!setting.writes_reference && mprotect(setting.shared, setting.shared_bytes, PROT_READ) != 0) {
        std::printf("error: cannot make the reference outputs read-only: %s\n", std::strerror(errno));
        std::fflush(stdout);
        _exit(0);
    }
    body(index, fd);
    std::fflush(stdout);
    _exit(0);
}

// Forks child `index`; it closes the parent's sockets to the other children
// (`others`), so that each child's socket ends with the child alone.
Child spawn(const ForkMeasurer::ChildBody &body, const ChildSetting &setting, size_t index,
            const std::vector<int> &others) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        throw UserError(std::string("cannot create a socket for a measuring process: ") + std::strerror(errno));
    }
    Child c;
    try {
        c.scratch = TempDir("ansor-scratch");
    } catch (...) {
        close(sv[0]);
        close(sv[1]);
        throw;
    }
    std::fflush(stdout);
    std::fflush(stderr);
    c.index = index;
    c.compile.begin_s = steady_now_s();
    const pid_t tuner = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        const int error = errno;
        close(sv[0]);
        close(sv[1]);
        throw UserError(std::string("cannot fork a measuring process: ") + std::strerror(error));
    }
    if (pid == 0) {
        close(sv[0]);
        run_child(body, setting, index, tuner, sv[1], others, c.scratch.path());
    }
    adopt_group(pid);
    close(sv[1]);
    c.pid = pid;
    c.fd = sv[0];
    return c;
}

// Waits until a compiling child reports it compiled (it moves to
// `compiled`), ends (a failure) or runs out of time (killed, a failure).
void await_compiles(std::vector<Child> &compiling, std::vector<Child> &compiled, std::vector<MeasureResult> &results,
                    const MeasureOptions &o, double timeout_s) {
    double first_deadline = compiling.front().compile.begin_s + timeout_s;
    std::vector<pollfd> fds;
    for (const Child &c : compiling) {
        first_deadline = std::min(first_deadline, c.compile.begin_s + timeout_s);
        fds.push_back({c.fd, POLLIN, 0});
    }
    double wait_ms = std::clamp((first_deadline - steady_now_s()) * 1000 + 1, 0.0, 1e9);
    int ready = poll(fds.data(), fds.size(), (int)wait_ms);
    if (ready < 0 && errno != EINTR) throw std::runtime_error(std::string("poll() failed: ") + std::strerror(errno));
    std::vector<Child> still;
    for (size_t i = 0; i < compiling.size(); i++) {
        Child &c = compiling[i];
        bool open = ready <= 0 || fds[i].revents == 0 || read_output(c);
        double now = steady_now_s();
        const double deadline = c.compile.begin_s + timeout_s;
        if (reports_compiled(c.output)) {
            c.compile.end_s = now;
            compiled.push_back(std::move(c));
        } else if (!open || now >= deadline) {
            // Ended (or closed its socket and goes on until its deadline), or out of time.
            Ending end = finish(c, deadline, open);
            c.compile.end_s = steady_now_s();
            const bool timed_out = open || end.timed_out;
            results[c.index] = result_of(c, end, timed_out ? "compiling" : nullptr, o, timeout_s);
        } else {
            still.push_back(std::move(c));
        }
    }
    compiling = std::move(still);
}

// Lets a compiled child run (warm-up, check, timed runs) until its result
// line, and ends it.
MeasureResult run_compiled(Child &c, const MeasureOptions &o, double timeout_s) {
    c.run.begin_s = steady_now_s();
    const double deadline = c.run.begin_s + timeout_s;
    const char go = 'g';
    ssize_t sent;  // MSG_NOSIGNAL: a dead child must not SIGPIPE the tuner
    while ((sent = send(c.fd, &go, 1, MSG_NOSIGNAL)) < 0 && errno == EINTR) {
    }
    bool timed_out = false;
    while (sent == 1 && !reports_result(c.output)) {
        double left = deadline - steady_now_s();
        if (left <= 0) {
            timed_out = true;
            break;
        }
        pollfd p{c.fd, POLLIN, 0};
        int ready = poll(&p, 1, (int)std::min(left * 1000 + 1, kExitCheckMs));
        if (ready == 0) {
            // A process it started may hold its socket open after it ended.
            if (!wait_exited(c.pid, 0)) continue;
            drain(c);
            break;
        }
        if (ready < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (!read_output(c)) break;
    }
    Ending end = finish(c, deadline, timed_out || sent != 1);
    c.run.end_s = steady_now_s();
    return result_of(c, end, timed_out || end.timed_out ? "running" : nullptr, o, timeout_s);
}

}  // namespace

std::vector<MeasureResult> ForkMeasurer::measure_batch(size_t count, const ChildBody &body, bool writes_reference,
                                                       int builders, double timeout_s) {
    std::vector<MeasureResult> results(count);
    const size_t window = compiled_window(builders);
    const ChildSetting setting{options_, shared_, shared_bytes_, writes_reference, timeout_s, window};
    std::vector<Child> compiling, compiled;
    try {
        size_t next = 0;
        while (next < count || !compiling.empty() || !compiled.empty()) {
            while (next < count && compiling.size() < (size_t)builders && compiling.size() + compiled.size() < window) {
                compiling.push_back(spawn(body, setting, next, open_sockets(compiling, compiled)));
                next++;
            }
            if (!compiling.empty()) {
                await_compiles(compiling, compiled, results, options_, timeout_s);
                continue;
            }
            // Nothing compiles now: the compiled children run one at a time.
            std::sort(compiled.begin(), compiled.end(), [](const Child &a, const Child &b) { return a.index < b.index; });
            for (Child &c : compiled) results[c.index] = run_compiled(c, options_, timeout_s);
            compiled.clear();
        }
    } catch (...) {
        for (Child &c : compiling) finish(c, 0, true);
        for (Child &c : compiled) finish(c, 0, true);
        throw;
    }
    return results;
}

}  // namespace ansor
