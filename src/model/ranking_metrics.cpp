#include "model/ranking_metrics.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <stdexcept>

namespace ansor {

namespace {

void check_sizes(const std::vector<double> &truth, const std::vector<double> &predicted) {
    if (truth.size() != predicted.size()) throw std::invalid_argument("ranking metrics: one score per program expected");
}

// The smallest true value that still counts as among the k fastest: the
// k-th largest (k ≥ 1, k ≤ programs).
double kth_largest(std::vector<double> values, size_t k) {
    std::nth_element(values.begin(), values.begin() + (k - 1), values.end(), std::greater<double>());
    return values[k - 1];
}

// Accumulates a weighted mean over the groups where a metric is defined.
struct WeightedMean {
    double sum = 0, weight = 0;
    void add(std::optional<double> value, double w) {
        if (!value) return;
        sum += *value * w;
        weight += w;
    }
    std::optional<double> mean() const {
        if (weight == 0) return std::nullopt;
        return sum / weight;
    }
};

}  // namespace

std::optional<double> pairwise_accuracy(const std::vector<double> &truth, const std::vector<double> &predicted) {
    check_sizes(truth, predicted);
    double right = 0;
    size_t pairs = 0;
    for (size_t i = 0; i < truth.size(); i++) {
        for (size_t j = 0; j < i; j++) {
            if (truth[i] == truth[j]) continue;
            pairs++;
            if (predicted[i] == predicted[j]) {
                right += 0.5;
            } else if ((truth[i] > truth[j]) == (predicted[i] > predicted[j])) {
                right += 1;
            }
        }
    }
    if (pairs == 0) return std::nullopt;
    return right / (double)pairs;
}

std::optional<double> top_k_recall(const std::vector<double> &truth, const std::vector<double> &predicted, size_t k) {
    check_sizes(truth, predicted);
    k = std::min(k, truth.size());
    if (k == 0) return std::nullopt;
    const double threshold = kth_largest(truth, k);
    std::vector<size_t> order(truth.size());
    std::iota(order.begin(), order.end(), 0);
    // Highest score first; stable, so equal scores keep the earlier program first.
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return predicted[a] > predicted[b]; });
    size_t hits = 0;
    for (size_t i = 0; i < k; i++) hits += truth[order[i]] >= threshold;
    return (double)hits / (double)k;
}

std::optional<double> r_squared(const std::vector<double> &truth, const std::vector<double> &predicted) {
    check_sizes(truth, predicted);
    if (truth.empty()) return std::nullopt;
    const double mean = std::accumulate(truth.begin(), truth.end(), 0.0) / (double)truth.size();
    double residual = 0, total = 0;
    for (size_t i = 0; i < truth.size(); i++) {
        residual += (truth[i] - predicted[i]) * (truth[i] - predicted[i]);
        total += (truth[i] - mean) * (truth[i] - mean);
    }
    if (total == 0) return std::nullopt;
    return 1 - residual / total;
}

RankingMetrics grouped_ranking_metrics(const std::vector<ProgramGroup> &groups, size_t k) {
    WeightedMean pairwise, recall, r2;
    RankingMetrics out;
    for (const ProgramGroup &g : groups) {
        const double w = (double)g.truth.size();
        pairwise.add(pairwise_accuracy(g.truth, g.predicted), w);
        recall.add(top_k_recall(g.truth, g.predicted, k), w);
        r2.add(r_squared(g.truth, g.predicted), w);
        out.programs += g.truth.size();
        out.groups++;
    }
    out.pairwise_accuracy = pairwise.mean();
    out.top_k_recall = recall.mean();
    out.r_squared = r2.mean();
    return out;
}

RankingMetrics chance_ranking_metrics(const std::vector<ProgramGroup> &groups, size_t k) {
    WeightedMean pairwise, recall;
    RankingMetrics out;
    for (const ProgramGroup &g : groups) {
        const size_t n = g.truth.size();
        const double w = (double)n;
        // Any pair with different truths: a random order gets it right half the time.
        if (pairwise_accuracy(g.truth, g.truth)) pairwise.add(0.5, w);
        const size_t kk = std::min(k, n);
        if (kk > 0) {
            // A random k-subset holds on average k·m/n of the m programs that
            // count as among the k fastest (m ≥ k with ties), so recall m/n.
            const double threshold = kth_largest(g.truth, kk);
            const auto m = (size_t)std::count_if(g.truth.begin(), g.truth.end(), [&](double t) { return t >= threshold; });
            recall.add((double)m / (double)n, w);
        }
        out.programs += n;
        out.groups++;
    }
    out.pairwise_accuracy = pairwise.mean();
    out.top_k_recall = recall.mean();
    return out;
}

}  // namespace ansor
