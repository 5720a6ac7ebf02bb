#pragma once
// Uniform random scores: the ablation baseline (the search without a model).
// It learns nothing, so it refuses pretraining with a UserError naming it
// (CostModel::pretrain's default).
#include "model/cost_model.h"

#include <limits>
#include <random>

namespace ansor {

class RandomCostModel : public CostModel {
public:
    explicit RandomCostModel(uint64_t seed) : rng_(seed) {}
    std::vector<double> predict(const std::vector<State> &states) override {
        std::vector<double> out;
        for (const auto &p : predict_stages(states)) out.push_back(p.score);
        return out;
    }
    std::vector<ProgramPrediction> predict_stages(const std::vector<State> &states) override {
        std::uniform_real_distribution<double> u(0, 1);
        std::vector<ProgramPrediction> out(states.size());
        for (auto &p : out) p.score = u(rng_);
        return out;
    }
    void update(const std::vector<State> &, const std::vector<MeasureResult> &) override {}
    std::string name() const override { return "random"; }

private:
    std::mt19937_64 rng_;
};

}  // namespace ansor
