#include "measure/run_timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

namespace ansor {

double steady_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

SamplingOptions sampling_options(double measure_seconds, int min_runs, int max_runs) {
    SamplingOptions s;
    s.min_seconds = measure_seconds / 2;
    s.max_seconds = measure_seconds * 2;
    s.min_runs = min_runs;
    s.max_runs = max_runs;
    return s;
}

namespace {

// RunGen's stopping rule: the best and the min_samples-th best sample agree.
bool accurate(std::vector<double> per_run, const SamplingOptions &o) {
    std::sort(per_run.begin(), per_run.end());
    return per_run[0] * (1 + o.accuracy) >= per_run[o.min_samples - 1];
}

}  // namespace

SampledTime time_in_samples(const std::function<void()> &run, const SamplingOptions &o, const SecondsClock &clock) {
    SamplingOptions opt = o;
    opt.min_samples = std::max(1, o.min_samples);
    const int cap = std::max(1, opt.max_runs / opt.min_samples);
    std::vector<double> per_run;  // each kept sample's seconds per run
    double total = 0;
    SampledTime t;
    int per_sample = 1;
    auto sample = [&] {
        double t0 = clock();
        for (int i = 0; i < per_sample; i++) run();
        double spent = clock() - t0;
        per_run.push_back(spent / per_sample);
        total += spent;
        t.runs += per_sample;
    };
    // Calibration as RunGen's: min_samples samples, each round with more
    // runs per sample, until the best of them times min_samples reaches
    // min_seconds. The best of several samples sizes the next round, so one
    // run held up by a preemption cannot shrink the samples; the last
    // round's samples are kept.
    for (;;) {
        per_run.clear();
        total = 0;
        t.runs = 0;
        for (int i = 0; i < opt.min_samples; i++) sample();
        double best = *std::min_element(per_run.begin(), per_run.end());
        if (best * opt.min_samples * per_sample >= opt.min_seconds || per_sample >= cap) break;
        double next = best > 0 ? opt.min_seconds / (best * opt.min_samples) : 0;
        per_sample = (int)std::min<double>(cap, std::llround(std::max(next, 2.0 * per_sample)));
    }
    for (;;) {
        // A program slower than a second per sample stops at min_samples
        // samples even short of min_runs (it would hold up the search).
        bool slow = total >= std::max(opt.max_seconds, 1.0);
        bool done = total >= opt.min_seconds && accurate(per_run, opt);
        if ((t.runs >= opt.min_runs || slow) && (done || total >= opt.max_seconds)) break;
        if (t.runs + per_sample > opt.max_runs) break;
        sample();
    }
    std::sort(per_run.begin(), per_run.end());
    t.samples = (int)per_run.size();
    t.best_ms = per_run.front() * 1e3;
    t.median_ms = per_run[per_run.size() / 2] * 1e3;
    return t;
}

}  // namespace ansor
