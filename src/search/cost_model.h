#pragma once
// The place a learned cost model plugs in (next issue: XGBoost on
// per-statement features). Scores are "higher is faster".
#include "measure/measurer.h"

#include <random>
#include <vector>

namespace ansor {

class CostModel {
public:
    virtual ~CostModel() = default;
    virtual std::vector<double> predict(const std::vector<State> &states) = 0;
    virtual void update(const std::vector<State> &states, const std::vector<MeasureResult> &results) = 0;
};

// Uniform random scores: the ablation baseline.
class RandomCostModel : public CostModel {
public:
    explicit RandomCostModel(uint64_t seed) : rng_(seed) {}
    std::vector<double> predict(const std::vector<State> &states) override {
        std::vector<double> s;
        std::uniform_real_distribution<double> u(0, 1);
        for (size_t i = 0; i < states.size(); i++) s.push_back(u(rng_));
        return s;
    }
    void update(const std::vector<State> &, const std::vector<MeasureResult> &) override {}

private:
    std::mt19937_64 rng_;
};

}  // namespace ansor
