#pragma once
// Measurement: the search hands states to a Measurer and gets times back.
// ForkMeasurer compiles each candidate with Halide's JIT on a deep copy of
// the pipeline in a forked child with a timeout, runs it on random inputs
// over the region the pipeline reads, checks every output against the
// reference (every Func at root; output_check.h gives the rules), and times
// it. Every child runs in the sandbox of sandbox.h: its own process group, a
// memory limit, the OOM killer's first choice, killed with the tuner, and the
// reference outputs read-only. A candidate that crashes, hangs, allocates
// without bound, leaves processes behind, writes garbage or computes wrongly
// comes back as a failure; nothing it does can stop the search.
//
// Builders: the children of a batch compile up to `builders` at a time;
// a compiled child waits until no compile is running, then the children
// run (warm-up, check, timed runs) one at a time. Compiling is most of a
// candidate's cost and scales with cores; timing stays alone on the machine.
#include "measure/measure_result.h"
#include "state/state.h"
#include "util/errors.h"
#include "util/memory_size.h"

#include <Halide.h>

#include <functional>
#include <string>
#include <vector>

namespace ansor {

class Measurer {
public:
    virtual ~Measurer() = default;
    // One result per state, in the states' order. The Tuner hands over a
    // whole round at once.
    virtual std::vector<MeasureResult> measure(const std::vector<State> &states) = 0;
};

struct MeasureOptions {
    Halide::Target target;
    int threads = 1;
    double timeout_s = 30;
    // Timing (run_timing.h): samples of back-to-back runs until about
    // measure_seconds / 2 are spent (2 * measure_seconds at most; the default
    // gives RunGen's 0.1 s and 0.4 s), at least `repeats` and at most
    // `max_repeats` runs in all; min_ms is the best sample's time per run,
    // RunGen's "best case". Single runs would hide the time a process waits
    // for a CPU on a shared machine, which every user's run pays.
    int repeats = 10;
    double measure_seconds = 0.2;
    int max_repeats = 1000000;
    double tolerance = 1e-3;
    // Children compiling at once (HL_ANSOR_BUILDERS; the session's default is
    // the machine's cores). Timed runs never overlap a compile or each other.
    int builders = 1;
    // Address space each measuring process may map beyond what it inherited
    // from the tuner (HL_ANSOR_MEMORY_LIMIT; 0: no limit).
    uint64_t memory_limit_bytes = default_memory_limit_bytes();
    // CPU targets: the tuning session times each candidate in a fresh
    // process (FreshProcessMeasurer) instead of the forked child
    // (HL_ANSOR_TIMING). ForkMeasurer itself ignores it.
    bool fresh_process = false;
    // ansor_runner's path for GPU targets and fresh-process timing (HL_ANSOR_RUNNER; "": found
    // as runner_location.h says).
    std::string runner;
    // When set, the reference child also writes the inputs it ran on to this
    // directory, as ansor_runner reads them (runner_files.h; inputs.json
    // names the files and the outputs' regions), so that another process
    // can run a candidate on the same values (GpuMeasurer).
    std::string reference_inputs_dir;
};

// The pipeline cannot be measured (measure/runnability.h, or the reference
// failed): the session schedules with the cost model alone and says why.
class MeasurementUnavailable : public UserError {
public:
    explicit MeasurementUnavailable(const std::string &why) : UserError(why) {}
};

class ForkMeasurer : public Measurer {
public:
    // Runs the reference once; throws MeasurementUnavailable if the pipeline
    // cannot be run (measurement_obstacles) or the reference itself fails
    // or cannot verify anything on inputs of the measured sizes.
    ForkMeasurer(const PipelineDAG &dag, MeasureOptions options);
    ~ForkMeasurer() override;
    std::vector<MeasureResult> measure(const std::vector<State> &states) override;
    // The all-at-root reference's own time.
    const MeasureResult &reference() const { return reference_; }
    // The reference outputs the children compare against (shared with them,
    // read-only in every candidate), in the order of the DAG's outputs.
    const void *reference_outputs() const { return shared_; }

    // Children compiled and waiting for their turn to run, at most: with one
    // builder each candidate runs as soon as it compiled; with more, a
    // default round (16) compiles in one go, and larger batches in phases of
    // this many, so that memory is bounded whatever the batch size.
    static size_t compiled_window(int builders);

    // Runs `count` candidates as children of the batch machinery above
    // (sandbox, builders, the compile and run deadlines); child i runs
    // body(i, control_fd) and must follow measure_child.h's protocol
    // (report_compiled, wait_for_go, then a result or an error line) and
    // never return. The reference outputs are read-only in every such child.
    // GpuMeasurer's candidates are built and run this way.
    using ChildBody = std::function<void(size_t index, int control_fd)>;
    std::vector<MeasureResult> measure_children(size_t count, const ChildBody &body);
    const MeasureOptions &options() const { return options_; }

private:
    std::vector<MeasureResult> measure_batch(size_t count, const ChildBody &body, bool writes_reference,
                                             int builders, double timeout_s);

    const PipelineDAG &dag_;
    MeasureOptions options_;
    void *shared_ = nullptr;  // reference outputs, shared with the children
    size_t shared_bytes_ = 0;
    MeasureResult reference_;
};

}  // namespace ansor
