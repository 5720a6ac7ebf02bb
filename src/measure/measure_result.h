#pragma once
// What measuring one program gives: its time or why it failed, and the
// plausibility check every result read back from elsewhere (a tuning log, a
// worker rank) passes before it can count.
#include <string>

namespace ansor {

// An interval of steady-clock time (CLOCK_MONOTONIC: one clock for the
// parent and its children), in seconds; {0, 0} when it did not happen.
struct TimeSpan {
    double begin_s = 0, end_s = 0;
    double seconds() const { return end_s - begin_s; }
    bool overlaps(const TimeSpan &o) const { return begin_s < o.end_s && o.begin_s < end_s; }
};

struct MeasureResult {
    bool ok = false;
    std::string error;   // why it failed: compile error, crash, timeout, wrong output
    double min_ms = 0;     // the best sample's time per run (run_timing.h): what RunGen reports
    double median_ms = 0;  // the median sample's
    double seconds = 0;  // time spent on this candidate: compile plus run phase, not its wait between them
    int runs = 0;        // timed runs behind min_ms and median_ms, all samples together
    // ForkMeasurer's phases of this candidate. compile: from the fork until
    // the child reported it compiled (or ended); run: from the parent's go
    // until the child's result and exit. timed: the child's own clock
    // readings around its timed runs.
    TimeSpan compile, run, timed;
    // Built and statically checked, but not run: no device can run it
    // (GpuMeasurer with a CUDA target on a machine without a CUDA device).
    // ok stays false, since there is no time, but it is no failure: error
    // reads "not run: <why>", and a tuner must log it neither as a failed
    // program nor as a measured one.
    bool not_run = false;
    // Where the time was taken when that is not the target's own device:
    // "pocl-cpu" for an OpenCL program run on PoCL, a CPU (a time that says
    // nothing about GPU performance). Empty for CPU measurements.
    std::string device;
    // host_cpu_id() of the machine that measured it when that is not this
    // process's (a worker rank of a distributed run); empty: this machine.
    std::string host;
};

// Why an ok result's numbers cannot be a measurement ("" when they can):
// times must be finite, min_ms above zero and median_ms not below it (0:
// not recorded), seconds and runs not negative. A failed result's times
// are not read.
std::string implausible_result(const MeasureResult &r);

}  // namespace ansor
