#pragma once
// Times a compiled program the way Halide's RunGen times a built generator
// (`--benchmarks=all`, halide_benchmark.h), so that the time the tuner
// records is the time its user gets: samples of back-to-back runs, each
// sample's time divided by its runs, and the best sample kept.
//
// Why not the fastest single run: on a shared machine a short program's
// single runs mostly fit between two preemptions, so their min and median
// leave out the time the process waits for a CPU, while every sample of
// RunGen's (a third of its 0.1 s) includes it. A 0.2 ms softmax measured
// 0.22 ms per run and 0.5-0.7 ms under RunGen's statistic, in the same
// process with the same code (docs/design.md, "Measurement").
// Halide-free: ansor_runner times programs in a process of its own with it.
#include <functional>

namespace ansor {

struct MeasureOptions;

struct SamplingOptions {
    double min_seconds = 0.1;  // sampled time to reach (RunGen's --benchmark_min_time)
    double max_seconds = 0.4;  // no sample starts past this (RunGen: 4x the minimum)
    double accuracy = 0.03;    // before that, sample on until best and third-best agree this closely
    int min_samples = 3;       // RunGen's
    int min_runs = 1;          // counted runs, at least (but see time_in_samples)
    int max_runs = 1000000;    // counted runs, at most
};

struct SampledTime {
    double best_ms = 0;    // fastest sample's time per run: RunGen's "best case"
    double median_ms = 0;  // median sample's time per run
    int runs = 0;          // runs in the kept samples
    int samples = 0;
};

// Half of measure_seconds to reach, twice it at most (with the default
// 0.2 s, RunGen's 0.1 s and 0.4 s); min_runs at least and max_runs at most.
SamplingOptions sampling_options(double measure_seconds, int min_runs, int max_runs);
// What MeasureOptions ask for: its measure_seconds, repeats and max_repeats
// (defined in pipeline_runner.cpp, with Halide).
SamplingOptions sampling_options(const MeasureOptions &options);

// Seconds on a monotonic clock; tests pass a scripted one.
using SecondsClock = std::function<double()>;
double steady_seconds();

// Calls `run` in samples of back-to-back runs, as many per sample as make
// min_samples samples last about min_seconds (found as RunGen finds them:
// rounds of min_samples samples with more runs each, not counted but for the
// last). Samples go on until min_runs are run, and then until min_seconds
// are spent and the samples agree to `accuracy`, or max_seconds are spent;
// a program whose samples took over a second stops there. max_runs caps the
// counted runs.
SampledTime time_in_samples(const std::function<void()> &run, const SamplingOptions &options,
                            const SecondsClock &clock = steady_seconds);

}  // namespace ansor
