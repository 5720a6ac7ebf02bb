#include "measure/measurer.h"
#include "measure/pipeline_runner.h"
#include "util/errors.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ansor {

namespace {

const char *result_marker = "ANSOR_RESULT ";

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

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

// Runs inside the child: compile, run, check, time; prints one result line.
[[noreturn]] void child_main(const PipelineDAG &dag, const State *state, const MeasureOptions &o, void *shared,
                             bool is_reference) {
    setenv("HL_NUM_THREADS", std::to_string(o.threads).c_str(), 1);
    try {
        PipelineRunner runner(dag, state, o.target);
        runner.compile();
        runner.run();  // warm-up
        char *ref = static_cast<char *>(shared);
        double worst = 0;
        for (auto &b : runner.outputs()) {
            if (is_reference) {
                std::memcpy(ref, b.data(), b.size_in_bytes());
            } else {
                worst = std::max(worst, max_relative_error(b, ref));
            }
            ref += b.size_in_bytes();
        }
        if (!is_reference && !(worst <= o.tolerance)) {
            std::printf("%swrong 0 0 %g\n", result_marker, worst);
            std::fflush(stdout);
            _exit(0);
        }
        SampledTime t = runner.time(sampling_options(o));
        std::printf("%sok %.6f %.6f 0 %d\n", result_marker, t.best_ms, t.median_ms, t.runs);
    } catch (const std::exception &e) {
        std::printf("error: %s\n", e.what());
    }
    std::fflush(stdout);
    _exit(0);
}

}  // namespace

ForkMeasurer::ForkMeasurer(const PipelineDAG &dag, MeasureOptions options) : dag_(dag), options_(std::move(options)) {
    shared_bytes_ = std::max<size_t>(reference_bytes(dag), 1);
    shared_ = mmap(nullptr, shared_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared_ == MAP_FAILED) throw std::runtime_error("cannot map shared memory for the reference output");
    // The unscheduled reference is far slower than a tuned candidate (a
    // 1024^3 matmul at root takes seconds; more on a loaded machine), and
    // without it nothing can be measured, so it gets ten candidates' time.
    reference_ = run_child(nullptr, 10 * options_.timeout_s);
    if (!reference_.ok) {
        throw UserError("the unscheduled pipeline (every Func at root) failed on inputs of the estimated sizes: " +
                        reference_.error);
    }
}

ForkMeasurer::~ForkMeasurer() {
    if (shared_ && shared_ != MAP_FAILED) munmap(shared_, shared_bytes_);
}

std::vector<MeasureResult> ForkMeasurer::measure(const std::vector<State> &states) {
    std::vector<MeasureResult> out;
    for (const State &s : states) out.push_back(run_child(&s, options_.timeout_s));
    return out;
}

MeasureResult ForkMeasurer::run_child(const State *state, double timeout_s) {
    MeasureResult r;
    double t0 = now_s();
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe() failed");
    std::fflush(stdout);
    std::fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork() failed");
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[1]);
        child_main(dag_, state, options_, shared_, state == nullptr);
    }
    close(fds[1]);
    std::string text;
    bool timed_out = false;
    char buf[4096];
    for (;;) {
        double left = timeout_s - (now_s() - t0);
        if (left <= 0) {
            timed_out = true;
            break;
        }
        pollfd p{fds[0], POLLIN, 0};
        int ready = poll(&p, 1, (int)std::min(left * 1000 + 1, 1e9));
        if (ready == 0) continue;
        if (ready < 0) {
            if (errno == EINTR) continue;
            break;
        }
        ssize_t n = read(fds[0], buf, sizeof(buf));
        if (n <= 0) break;
        text.append(buf, n);
        if (text.size() > (1 << 20)) text.erase(0, text.size() - (1 << 16));
    }
    if (timed_out) kill(pid, SIGKILL);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    r.seconds = now_s() - t0;

    auto at = text.find(result_marker);
    if (timed_out) {
        r.error = "timed out after " + std::to_string((int)timeout_s) + " s";
    } else if (at != std::string::npos) {
        std::string line = text.substr(at + strlen(result_marker));
        char verdict[16] = {0};
        double a = 0, b = 0, err = 0;
        int runs = 0;
        std::sscanf(line.c_str(), "%15s %lf %lf %lf %d", verdict, &a, &b, &err, &runs);
        if (std::string(verdict) == "ok") {
            r.ok = true;
            r.min_ms = a;
            r.median_ms = b;
            r.runs = runs;
        } else {
            r.error = "wrong output: relative error " + std::to_string(err) + " exceeds tolerance";
        }
    } else {
        std::string tail = text.size() > 600 ? text.substr(text.size() - 600) : text;
        while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
        if (WIFSIGNALED(status)) {
            r.error = "crashed with signal " + std::to_string(WTERMSIG(status)) + (tail.empty() ? "" : ": " + tail);
        } else {
            r.error = tail.empty() ? "exited without a result" : tail;
        }
    }
    return r;
}

}  // namespace ansor
