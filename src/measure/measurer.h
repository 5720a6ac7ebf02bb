#pragma once
// Measurement: the search hands states to a Measurer and gets times back.
// ForkMeasurer compiles each candidate with Halide's JIT on a deep copy of
// the pipeline in a forked child with a timeout, runs it on random inputs
// sized by the estimates, checks the output against the unscheduled
// pipeline (every Func at root), and times it. A candidate that crashes,
// hangs or computes wrongly comes back as a failure; nothing it does can
// stop the search.
#include "state/state.h"

#include <Halide.h>

#include <string>
#include <vector>

namespace ansor {

struct MeasureResult {
    bool ok = false;
    std::string error;   // why it failed: compile error, crash, timeout, wrong output
    double min_ms = 0;     // the best sample's time per run (run_timing.h): what RunGen reports
    double median_ms = 0;  // the median sample's
    double seconds = 0;  // wall time spent on this candidate, compile included
    int runs = 0;        // timed runs behind min_ms and median_ms, all samples together
};

class Measurer {
public:
    virtual ~Measurer() = default;
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
};

class ForkMeasurer : public Measurer {
public:
    // Runs the reference once; throws UserError if the unscheduled pipeline
    // itself cannot run on inputs of the estimated sizes.
    ForkMeasurer(const PipelineDAG &dag, MeasureOptions options);
    ~ForkMeasurer() override;
    std::vector<MeasureResult> measure(const std::vector<State> &states) override;
    // The all-at-root reference's own time.
    const MeasureResult &reference() const { return reference_; }

private:
    MeasureResult run_child(const State *state, double timeout_s);

    const PipelineDAG &dag_;
    MeasureOptions options_;
    void *shared_ = nullptr;  // reference outputs, shared with the children
    size_t shared_bytes_ = 0;
    MeasureResult reference_;
};

}  // namespace ansor
