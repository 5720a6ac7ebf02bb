#include "measure/measure_child.h"

#include "measure/measurement_buffers.h"
#include "measure/output_check.h"
#include "measure/pipeline_runner.h"
#include "measure/reference_inputs.h"
#include "measure/run_timing.h"
#include "measure/resource_limits.h"
#include "measure/sandbox.h"
#include "measure/strict_float_check.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

namespace ansor {

namespace {

const char *const compiled_marker = "ANSOR_COMPILED\n";
const char *const result_marker = "ANSOR_RESULT ";
const char *const wrong_marker = "ANSOR_WRONG ";  // the line before a wrong result: what differs
const char *const device_marker = "ANSOR_DEVICE ";  // the line before a result: where it was timed
const char *const not_run_marker = "ANSOR_NOT_RUN ";  // instead of a result: built, but no device to run it

void print_line(const char *format, double a, double b, double error, size_t runs, const TimeSpan &timed) {
    std::printf(format, result_marker, a, b, error, runs, timed.begin_s, timed.end_s);
    std::fflush(stdout);
}

// The rest of the line after the last `marker` in `text`, or "" if none.
std::string line_after(const std::string &text, const char *marker) {
    auto at = text.rfind(marker);
    if (at == std::string::npos) return "";
    at += std::strlen(marker);
    return text.substr(at, text.find('\n', at) - at);
}

}  // namespace

void report_compiled() {
    std::fputs(compiled_marker, stdout);
    std::fflush(stdout);
}

bool wait_for_go(int control_fd) {
    char go = 0;
    ssize_t got = 0;
    while ((got = read(control_fd, &go, 1)) < 0 && errno == EINTR) {
    }
    return got == 1;
}

void report_ok(double min_ms, double median_ms, size_t runs, const TimeSpan &timed) {
    print_line("%sok %.6f %.6f %g %zu %.6f %.6f\n", min_ms, median_ms, 0, runs, timed);
}

void report_wrong(const std::string &detail, double worst) {
    std::printf("%s%s\n", wrong_marker, detail.c_str());
    print_line("%swrong %g %g %g %zu %.6f %.6f\n", 0, 0, worst, 0, TimeSpan{});
}

void report_device(const std::string &device) {
    std::printf("%s%s\n", device_marker, device.c_str());
    std::fflush(stdout);
}

void report_not_run(const std::string &why) {
    std::printf("%s%s\n", not_run_marker, why.c_str());
    std::fflush(stdout);
}

double steady_now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

namespace {

// The shared memory's parts: the reference's outputs (dense, in output
// order), their rounding spread in the same layout, then the region of each
// buffer input the reference reads, a (min, extent) pair per dim in
// dag.inputs() order. ForkMeasurer sizes it so.
struct SharedReference {
    char *outputs, *spread, *input_regions;
};

SharedReference shared_reference(void *shared, const std::vector<Halide::Buffer<>> &outputs) {
    size_t output_bytes = 0;
    for (const Halide::Buffer<> &b : outputs) output_bytes += b.number_of_elements() * b.type().bytes();
    char *base = static_cast<char *>(shared);
    return {base, base + output_bytes, base + 2 * output_bytes};
}

// The i-th int64 at `p`, which need not be aligned.
int64_t int64_at(const char *p, size_t i) {
    int64_t v;
    std::memcpy(&v, p + i * sizeof(int64_t), sizeof(int64_t));
    return v;
}

// "" when every buffer input of the candidate covers no more than the
// reference's (written by the reference child at `regions`); else which
// input this schedule reads beyond what the all-at-root pipeline reads.
// The runner grows an input to what the compiled program reads, so the
// program runs here; a caller passing inputs of the pipeline's own size
// would get Halide's out-of-bounds error (the over-compute of a Halide 14
// bug, or a tail the search let read past a border).
std::string reads_beyond_reference(const PipelineDAG &dag, const std::vector<Halide::Buffer<>> &inputs,
                                   const char *regions) {
    size_t k = 0, at = 0;
    for (const InputInfo &in : dag.inputs()) {
        if (in.dimensions == 0) continue;
        const Halide::Buffer<> &b = inputs[k++];
        for (int d = 0; d < in.dimensions; d++, at += 2) {
            const int64_t lo = int64_at(regions, at), hi = lo + int64_at(regions, at + 1);
            const int64_t min = b.dim(d).min(), max = (int64_t)b.dim(d).min() + b.dim(d).extent();
            if (min < lo || max > hi) {
                return "reads input " + in.name + " over [" + std::to_string(min) + ", " + std::to_string(max) +
                       ") in dim " + std::to_string(d) + " where the all-at-root pipeline reads [" +
                       std::to_string(lo) + ", " + std::to_string(hi) +
                       "): a caller passing inputs of the pipeline's size would fail";
            }
        }
    }
    return "";
}

void write_input_regions(const std::vector<Halide::Buffer<>> &inputs, char *regions) {
    for (const Halide::Buffer<> &b : inputs) {
        for (int d = 0; d < b.dimensions(); d++) {
            const int64_t range[2] = {b.dim(d).min(), b.dim(d).extent()};
            std::memcpy(regions, range, sizeof(range));
            regions += sizeof(range);
        }
    }
}

// Whether a candidate whose outputs failed the check computes the same bits
// when run again and matches the reference when both are compiled with
// strict_float (strict_float_check.h). Runs it once more, and compiles the
// strict_float reference only then: most candidates never need it.
bool differs_by_float_transforms_alone(PipelineRunner &candidate, const MeasureOptions &o, const SharedReference &layout) {
    if (!strict_float_recheck_applies(o.target)) return false;
    std::vector<Halide::Buffer<>> first;
    for (const Halide::Buffer<> &b : candidate.outputs()) first.push_back(b.copy());
    candidate.run();
    return identical_outputs(first, candidate.outputs()) &&
           strict_float_mismatch(candidate, candidate.dag(), o.tolerance, layout.spread).empty();
}

}  // namespace

void measure_child_main(const PipelineDAG &dag, const State *state, const MeasureOptions &o, void *shared,
                        int control_fd) {
    setenv("HL_NUM_THREADS", std::to_string(o.threads).c_str(), 1);
    const bool is_reference = state == nullptr;
    try {
        PipelineRunner runner(dag, state, o.target);
        runner.compile();
        const SharedReference layout = shared_reference(shared, runner.outputs());
        if (is_reference) {
            write_input_regions(runner.inputs(), layout.input_regions);
        } else {
            const std::string over_read = reads_beyond_reference(dag, runner.inputs(), layout.input_regions);
            if (!over_read.empty()) {
                std::printf("error: %s\n", over_read.c_str());
                std::fflush(stdout);
                _exit(0);
            }
        }
        report_compiled();
        if (!wait_for_go(control_fd)) _exit(0);  // the parent gave up on this batch

        runner.warm_up();  // and the heap as a fresh process has it after a first run
        const std::vector<OutputRule> rules = output_rules(dag, o.tolerance);
        char *ref = layout.outputs;
        char *spread = layout.spread;
        std::vector<Halide::Buffer<>> reference_spread;
        if (is_reference) {
            reference_spread = rounding_spread(runner);
        }
        double worst = 0;
        for (size_t i = 0; i < runner.outputs().size(); i++) {
            // The reference and every candidate lay outputs out alike;
            // a strided one (pinned by set_stride) is compared compacted.
            const Halide::Buffer<> b = is_dense(runner.outputs()[i]) ? runner.outputs()[i] : runner.outputs()[i].copy();
            if (is_reference) {
                std::string why = unverifiable_reason(b, rules[i]);
                if (!why.empty()) {
                    std::printf("error: unverifiable: %s\n", why.c_str());
                    std::fflush(stdout);
                    _exit(0);
                }
                std::memcpy(ref, b.data(), b.size_in_bytes());
                if (reference_spread[i].defined()) {
                    std::memcpy(spread, reference_spread[i].data(), reference_spread[i].size_in_bytes());
                } else {
                    std::memset(spread, 0, b.size_in_bytes());
                }
            } else {
                OutputComparison c = compare_output(b, ref, rules[i], spread);
                if (!c.ok()) {
                    if (!differs_by_float_transforms_alone(runner, o, layout)) {
                        report_wrong(c.detail, c.worst);
                        _exit(0);
                    }
                    break;
                }
                worst = std::max(worst, c.worst);
            }
            ref += b.size_in_bytes();
            spread += b.size_in_bytes();
        }
        if (is_reference && !o.reference_inputs_dir.empty()) {
            write_reference_inputs(o.reference_inputs_dir, dag, runner.inputs());
        }
        // Timed as RunGen times a built generator (run_timing.h).
        TimeSpan timed;
        timed.begin_s = steady_now_s();
        SampledTime t = runner.time(sampling_options(o));
        timed.end_s = steady_now_s();
        if (has_running_children()) {
            std::printf("error: left processes running after its runs (killed with its process group)\n");
            std::fflush(stdout);
            _exit(0);
        }
        report_ok(t.best_ms, t.median_ms, (size_t)t.runs, timed);
    } catch (const std::exception &e) {
        std::printf("error: %s\n", e.what());
    }
    std::fflush(stdout);
    _exit(0);
}

bool reports_compiled(const std::string &output) { return output.find(compiled_marker) != std::string::npos; }

bool reports_result(const std::string &output) {
    auto at = output.rfind(result_marker);
    return at != std::string::npos && output.find('\n', at) != std::string::npos;
}

namespace {

// Where the child's own (last) "error: ..." report starts in `shown`, or
// npos when it wrote none.
size_t own_error_at(const std::string &shown) {
    size_t at = shown.rfind("\nerror: ");
    if (at != std::string::npos) return at + 1;
    return shown.compare(0, 7, "error: ") == 0 ? 0 : std::string::npos;
}

}  // namespace

// The verdict without the device line.
static MeasureResult parse_result_lines(const std::string &text, int status);

MeasureResult parse_child_output(const std::string &text, int status) {
    MeasureResult r = parse_result_lines(text, status);
    r.device = line_after(text, device_marker);
    return r;
}

static MeasureResult parse_result_lines(const std::string &text, int status) {
    MeasureResult r;
    // The last result line: whatever the candidate itself wrote comes before it.
    auto at = text.rfind(result_marker);
    if (at != std::string::npos) {
        std::string line = text.substr(at + std::strlen(result_marker));
        line = line.substr(0, line.find('\n'));
        char verdict[16] = {0};
        double a = 0, b = 0, err = 0;
        int runs = 0;
        const int fields = std::sscanf(line.c_str(), "%15s %lf %lf %lf %d %lf %lf", verdict, &a, &b, &err, &runs,
                                       &r.timed.begin_s, &r.timed.end_s);
        const bool ok = std::string(verdict) == "ok";
        const bool sane = ok ? a >= 0 && b >= a && runs > 0 && b < 1e300 : std::string(verdict) == "wrong";
        if (fields != 7 || !sane) {
            r = MeasureResult();
            r.error = "garbage on the result channel: a malformed result line '" + line.substr(0, 120) + "'";
            return r;
        }
        if (ok) {
            r.ok = true;
            r.min_ms = a;
            r.median_ms = b;
            r.runs = runs;
        } else {
            auto why = text.find(wrong_marker);
            if (why != std::string::npos) {
                why += std::strlen(wrong_marker);
                r.error = "wrong output: " + text.substr(why, text.find('\n', why) - why);
            } else {
                r.error = "wrong output: error " + std::to_string(err) + " exceeds tolerance";
            }
        }
        return r;
    }
    if (text.find(not_run_marker) != std::string::npos && !WIFSIGNALED(status)) {
        r.not_run = true;
        r.error = "not run: " + line_after(text, not_run_marker);
        return r;
    }
    std::string shown = text;
    auto compiled = shown.find(compiled_marker);
    if (compiled != std::string::npos) shown.erase(compiled, std::strlen(compiled_marker));
    std::string tail = shown.size() > 600 ? shown.substr(shown.size() - 600) : shown;
    while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
    if (WIFSIGNALED(status)) {
        r.error = "crashed with signal " + std::to_string(WTERMSIG(status)) + resource_limit_note(WTERMSIG(status)) +
                  (tail.empty() ? "" : ": " + tail);
    } else if (const size_t own = own_error_at(shown); own != std::string::npos) {
        // Its error report, with what it printed around it (an extern
        // stage's complaint before it). Where more followed it than the
        // tail shows (Halide's warnings), the report's head comes first.
        const bool in_tail = shown.size() - own <= 600;
        std::string head = shown.substr(own, 600);
        head = head.substr(0, head.find('\n'));
        r.error = in_tail ? tail : head + " [...] " + tail;
    } else {
        // Neither a result nor an error of its own: say how it ended, then
        // what it printed last (often Halide's warnings alone).
        r.error = "exited with status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                  " without a result" + (tail.empty() ? "" : ": " + tail);
    }
    return r;
}

}  // namespace ansor
