#pragma once
// How well a cost model's scores rank programs (Ansor §7, the cost-model
// accuracy benchmark, docs/cost_model.md). `truth` holds the measured
// normalised throughputs (higher is faster), `predicted` the model's scores
// for the same programs in the same order; only the order of the scores
// matters, except for r_squared.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ansor {

// The share of pairs of programs with different true throughputs that the
// scores order the same way. A pair with equal scores counts one half (a
// coin flip would get it right half the time). nullopt without such a pair.
std::optional<double> pairwise_accuracy(const std::vector<double> &truth, const std::vector<double> &predicted);

// Top-k recall: of the k programs with the highest scores, the share that
// are among the k truly fastest, with k = min(k, programs). A program tied
// with the k-th fastest counts as among them (so ties in truth, e.g. several
// failed programs at 0, cannot cost a hit). Ties in the scores go to the
// earlier program. nullopt without programs or for k = 0.
std::optional<double> top_k_recall(const std::vector<double> &truth, const std::vector<double> &predicted, size_t k);

// Coefficient of determination of the scores as predictions of the truth:
// 1 − Σ(truth − predicted)² / Σ(truth − mean truth)². nullopt when the
// truth does not vary.
std::optional<double> r_squared(const std::vector<double> &truth, const std::vector<double> &predicted);

// The three metrics over several groups of programs (one group per pipeline):
// each is computed per group and averaged with the group's program count as
// its weight, over the groups where it is defined.
struct RankingMetrics {
    std::optional<double> pairwise_accuracy, top_k_recall, r_squared;
    size_t programs = 0;  // over all groups
    size_t groups = 0;
};

struct ProgramGroup {
    std::vector<double> truth, predicted;
    std::string name;  // for reports only
};

RankingMetrics grouped_ranking_metrics(const std::vector<ProgramGroup> &groups, size_t k);

// What a ranking drawn at random would score on these groups, on average:
// pairwise accuracy 1/2 and top-k recall min(k, n) / n per group, averaged
// with the same weights (r² has no such baseline and is left empty).
RankingMetrics chance_ranking_metrics(const std::vector<ProgramGroup> &groups, size_t k);

}  // namespace ansor
