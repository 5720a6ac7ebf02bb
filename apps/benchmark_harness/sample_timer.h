#pragma once
// Timing samples of one variant, the same way in every worker process: the
// first call measures one run and fixes how many back-to-back runs make a
// sample (kSampleSeconds, at most kMaxRunsPerSample); every sample is the
// mean time of one run over those, in ms. A call stops early, after at least
// one sample, once it has spent budget_s: an unscheduled pipeline that runs
// for seconds gives fewer samples instead of holding the run up for minutes.
#include "worker_protocol.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

namespace ansor_harness {

class SampleTimer {
public:
    std::vector<double> samples_ms(const std::function<void()> &run, int count, double budget_s) {
        if (runs_per_sample_ == 0) {
            double once = seconds(run, 1);
            runs_per_sample_ = (int)std::clamp(kSampleSeconds / std::max(once, 1e-7), 1.0, (double)kMaxRunsPerSample);
        }
        std::vector<double> out;
        double spent = 0;
        for (int i = 0; i < count && (i == 0 || spent < budget_s); i++) {
            double s = seconds(run, runs_per_sample_);
            spent += s;
            out.push_back(s / runs_per_sample_ * 1e3);
        }
        return out;
    }

private:
    static double seconds(const std::function<void()> &run, int runs) {
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < runs; i++) run();
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    int runs_per_sample_ = 0;
};

inline double median_of(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace ansor_harness
