#pragma once
// A small deterministic PRNG (splitmix64) with distributions written out by
// hand: std::uniform_int_distribution and friends differ between standard
// libraries, and a seed must give the same pipeline everywhere.
#include <cmath>
#include <cstdint>
#include <vector>

namespace random_pipeline {

class Rng {
public:
    explicit Rng(uint64_t seed) : state_(seed) {}

    uint64_t next() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, 1), from the top 53 bits.
    double unit() { return (double)(next() >> 11) * (1.0 / 9007199254740992.0); }
    // Uniform integer in [lo, hi] (inclusive); lo <= hi.
    int64_t range(int64_t lo, int64_t hi) {
        uint64_t span = (uint64_t)(hi - lo) + 1;
        return lo + (int64_t)(next() % span);  // the bias is negligible for small spans
    }
    bool chance(double p) { return unit() < p; }
    // Log-uniform integer in [lo, hi]: sizes from tens to thousands alike.
    int log_range(int lo, int hi) {
        double v = std::exp(std::log((double)lo) + unit() * (std::log((double)hi + 1) - std::log((double)lo)));
        int r = (int)v;
        return r < lo ? lo : (r > hi ? hi : r);
    }
    template <typename T>
    const T &pick(const std::vector<T> &v) {
        return v[(size_t)range(0, (int64_t)v.size() - 1)];
    }
    // Index drawn with probability proportional to weights[i] (some > 0).
    size_t weighted(const std::vector<double> &weights) {
        double total = 0;
        for (double w : weights) total += w;
        double u = unit() * total;
        for (size_t i = 0; i < weights.size(); i++) {
            if (u < weights[i]) return i;
            u -= weights[i];
        }
        return weights.size() - 1;
    }

private:
    uint64_t state_;
};

}  // namespace random_pipeline
