// The cost-model accuracy metrics (src/model/ranking_metrics.h) on small
// cases worked out by hand.
#include "model/ranking_metrics.h"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace ansor;

TEST_CASE("ranking metrics: pairwise accuracy") {
    // All three pairs in the right order, then all wrong.
    CHECK(*pairwise_accuracy({3, 1, 2}, {0.9, 0.1, 0.5}) == doctest::Approx(1.0));
    CHECK(*pairwise_accuracy({3, 1, 2}, {0.1, 0.9, 0.5}) == doctest::Approx(0.0));
    // Six pairs; only (2, 3) is swapped.
    CHECK(*pairwise_accuracy({1, 2, 3, 4}, {1, 3, 2, 4}) == doctest::Approx(5.0 / 6));
    // The pair with equal truths is left out; a tie in the scores counts half:
    // (0, 2) tied scores 0.5, (1, 2) right 1 -> 1.5 / 2.
    CHECK(*pairwise_accuracy({1, 1, 2}, {5, 0, 5}) == doctest::Approx(0.75));
    // No pair with different truths.
    CHECK_FALSE(pairwise_accuracy({1, 1}, {0, 1}).has_value());
    CHECK_FALSE(pairwise_accuracy({}, {}).has_value());
    CHECK_THROWS_AS(pairwise_accuracy({1, 2}, {1}), std::invalid_argument);
}

TEST_CASE("ranking metrics: top-k recall") {
    const std::vector<double> truth = {0.9, 0.1, 0.8, 0.3, 0.5};
    const std::vector<double> scores = {0.7, 0.6, 0.1, 0.2, 0.9};
    // True top 2: {0, 2}; scored top 2: {4, 0} -> 1 of 2.
    CHECK(*top_k_recall(truth, scores, 2) == doctest::Approx(0.5));
    // True top 3: {0, 2, 4}; scored top 3: {4, 0, 1} -> 2 of 3.
    CHECK(*top_k_recall(truth, scores, 3) == doctest::Approx(2.0 / 3));
    // k larger than the programs: k = 5, every program is in both sets.
    CHECK(*top_k_recall(truth, scores, 30) == doctest::Approx(1.0));
    // Ties in truth at the k-th place: the 2nd fastest is 0, so any program counts.
    CHECK(*top_k_recall({1, 0, 0, 0}, {0.1, 0.4, 0.3, 0.2}, 2) == doctest::Approx(1.0));
    // Ties in the scores go to the earlier program (truth 1, not the fastest 3).
    CHECK(*top_k_recall({1, 2, 3}, {0, 0, 0}, 1) == doctest::Approx(0.0));
    CHECK_FALSE(top_k_recall(truth, scores, 0).has_value());
    CHECK_FALSE(top_k_recall({}, {}, 30).has_value());
}

TEST_CASE("ranking metrics: r squared") {
    CHECK(*r_squared({1, 2, 3}, {1, 2, 3}) == doctest::Approx(1.0));
    // Predicting the mean: residual 2 = total 2.
    CHECK(*r_squared({1, 2, 3}, {2, 2, 2}) == doctest::Approx(0.0));
    // Residual 1, total 2.
    CHECK(*r_squared({1, 2, 3}, {1, 3, 3}) == doctest::Approx(0.5));
    // Worse than the mean goes negative: residual 2, total 0.5.
    CHECK(*r_squared({1, 2}, {2, 1}) == doctest::Approx(-3.0));
    CHECK_FALSE(r_squared({5, 5}, {1, 2}).has_value());
    CHECK_FALSE(r_squared({}, {}).has_value());
}

TEST_CASE("ranking metrics: averaged over groups, weighted by programs") {
    // A (4 programs): pairwise 5/6, recall@2 1/2 (scored top 2 = truths 4, 2), r² 1 − 2/5 = 0.6.
    // B (2 programs): pairwise 0, recall@2 1 (k = 2 = all), r² −3.
    // C (2 programs, equal truths): only recall is defined, 1.
    const std::vector<ProgramGroup> groups = {
        {{1, 2, 3, 4}, {1, 3, 2, 4}},
        {{1, 2}, {2, 1}},
        {{5, 5}, {1, 2}},
    };
    RankingMetrics m = grouped_ranking_metrics(groups, 2);
    CHECK(m.programs == 8);
    CHECK(m.groups == 3);
    CHECK(*m.pairwise_accuracy == doctest::Approx((4 * 5.0 / 6 + 2 * 0.0) / 6));  // 5/9, C left out
    CHECK(*m.top_k_recall == doctest::Approx((4 * 0.5 + 2 * 1.0 + 2 * 1.0) / 8));  // 0.75
    CHECK(*m.r_squared == doctest::Approx((4 * 0.6 + 2 * -3.0) / 6));              // −0.6, C left out

    // A random ranking: pairwise 1/2 where defined; recall m/n per group:
    // A 2/4, B 2/2, C 2/2 (its two truths tie) -> (2 + 2 + 2) / 8.
    RankingMetrics chance = chance_ranking_metrics(groups, 2);
    CHECK(*chance.pairwise_accuracy == doctest::Approx(0.5));
    CHECK(*chance.top_k_recall == doctest::Approx(0.75));
    CHECK_FALSE(chance.r_squared.has_value());
    // Ties at the k-th place widen the set a random pick can hit: 3 of 4 count for k = 1.
    CHECK(*chance_ranking_metrics({{{1, 1, 1, 0}, {0, 0, 0, 0}}}, 1).top_k_recall == doctest::Approx(0.75));

    CHECK_FALSE(grouped_ranking_metrics({}, 30).pairwise_accuracy.has_value());
}
