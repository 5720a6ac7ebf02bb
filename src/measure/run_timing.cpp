#include "measure/run_timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

namespace ansor {

double steady_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

SamplingOptions sampling_options(const MeasureOptions &options) {
    SamplingOptions s;
    s.min_seconds = options.measure_seconds / 2;
    s.max_seconds = options.measure_seconds * 2;
    s.min_runs = options.repeats;
    s.max_runs = options.max_repeats;
    return s;
}

namespace {

// Runs per sample: enough for min_samples samples to span min_seconds, few
// enough for min_samples samples to fit in max_runs.
int runs_per_sample(const std::function<void()> &run, const SamplingOptions &o, double first_run_seconds,
                    const SecondsClock &clock) {
    const int cap = std::max(1, o.max_runs / std::max(1, o.min_samples));
    const double sample_seconds = o.min_seconds / std::max(1, o.min_samples);
    if (sample_seconds <= 0 || first_run_seconds >= sample_seconds) return 1;
    double t0 = clock();
    run();
    double one = clock() - t0;
    if (one <= 0) return cap;
    return (int)std::clamp<double>(std::llround(sample_seconds / one), 1, cap);
}

// RunGen's stopping rule: the best and the min_samples-th best sample agree.
bool accurate(std::vector<double> per_run, const SamplingOptions &o) {
    std::sort(per_run.begin(), per_run.end());
    return per_run[0] * (1 + o.accuracy) >= per_run[o.min_samples - 1];
}

}  // namespace

SampledTime time_in_samples(const std::function<void()> &run, const SamplingOptions &o, double first_run_seconds,
                            const SecondsClock &clock) {
    SamplingOptions opt = o;
    opt.min_samples = std::max(1, o.min_samples);
    const int per_sample = runs_per_sample(run, opt, first_run_seconds, clock);
    std::vector<double> per_run;  // each sample's seconds per run
    double total = 0;
    SampledTime t;
    for (;;) {
        if ((int)per_run.size() >= opt.min_samples) {
            // A program slower than a second per sample stops at min_samples
            // samples even short of min_runs (it would hold up the search).
            bool slow = total >= std::max(opt.max_seconds, 1.0);
            bool done = total >= opt.min_seconds && accurate(per_run, opt);
            if ((t.runs >= opt.min_runs || slow) && (done || total >= opt.max_seconds)) break;
            if (t.runs + per_sample > opt.max_runs) break;
        }
        double t0 = clock();
        for (int i = 0; i < per_sample; i++) run();
        double spent = clock() - t0;
        per_run.push_back(spent / per_sample);
        total += spent;
        t.runs += per_sample;
    }
    std::sort(per_run.begin(), per_run.end());
    t.samples = (int)per_run.size();
    t.best_ms = per_run.front() * 1e3;
    t.median_ms = per_run[per_run.size() / 2] * 1e3;
    return t;
}

}  // namespace ansor
