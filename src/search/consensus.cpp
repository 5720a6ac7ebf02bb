#include "search/consensus.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace ansor {

namespace {

// Mean and standard deviation of the finite scores (deviation 1 where they
// do not spread, so that judgements stay finite).
std::pair<double, double> scale_of(const std::vector<double> &scores) {
    double sum = 0, sum_sq = 0;
    size_t n = 0;
    for (double s : scores) {
        if (!std::isfinite(s)) continue;
        sum += s;
        sum_sq += s * s;
        n++;
    }
    if (n == 0) return {0, 1};
    const double mean = sum / n;
    const double variance = std::max(0.0, sum_sq / n - mean * mean);
    const double sd = std::sqrt(variance);
    return {mean, sd > 1e-12 ? sd : 1};
}

}  // namespace

std::vector<size_t> jury_order(const std::vector<std::vector<double>> &finalist_scores,
                               const std::vector<std::vector<double>> &elite_scores) {
    if (finalist_scores.size() != elite_scores.size()) {
        throw std::invalid_argument("jury_order: " + std::to_string(finalist_scores.size()) + " members judged, " +
                                    std::to_string(elite_scores.size()) + " elites");
    }
    if (finalist_scores.empty()) return {};
    const size_t n = finalist_scores[0].size();
    std::vector<double> grade(n, INFINITY);
    for (size_t m = 0; m < finalist_scores.size(); m++) {
        const std::vector<double> &scores = finalist_scores[m];
        if (scores.size() != n) {
            throw std::invalid_argument("jury_order: a member scored " + std::to_string(scores.size()) +
                                        " finalists, another " + std::to_string(n));
        }
        const auto [mean, sd] = scale_of(elite_scores[m]);
        for (size_t i = 0; i < n; i++) {
            const double judgement = std::isfinite(scores[i]) ? (scores[i] - mean) / sd : -INFINITY;
            grade[i] = std::min(grade[i], judgement);
        }
    }
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return grade[a] > grade[b]; });
    return order;
}

}  // namespace ansor
