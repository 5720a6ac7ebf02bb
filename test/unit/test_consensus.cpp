// The zero-shot pick of a blend: the finalist whose worst judgement by the
// members (its score against the member's own elite, in the elite's
// standard deviations) is best.
#include "search/consensus.h"

#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

using namespace ansor;

namespace {

const std::vector<double> kEliteA = {0, 1, 2};    // mean 1, deviation 0.816
const std::vector<double> kEliteB = {0, 10, 20};  // mean 10, deviation 8.16

}  // namespace

TEST_CASE("jury: a finalist both members rate above their elite beats one a single member rates far above it") {
    // Finalist 0: A judges it +4.9, B -2.4 (one member's wild favourite).
    // Finalist 1: +1.2 by both. Finalist 2: +0.6 by A, +2.4 by B.
    const std::vector<std::vector<double>> finalists = {{5, 2, 1.5}, {-10, 20, 30}};
    CHECK(jury_order(finalists, {kEliteA, kEliteB}) == std::vector<size_t>{1, 2, 0});
    // The sum of the members' scores, or of their judgements, would have
    // picked finalist 2: the worst judgement is what decides.
}

TEST_CASE("jury: a member's scale does not matter; one member alone gives its own order") {
    const std::vector<std::vector<double>> finalists = {{5, 2, 1.5}, {-10, 20, 30}};
    auto rescaled = [](std::vector<double> v) {
        for (double &x : v) x = 100 * x + 7;
        return v;
    };
    CHECK(jury_order({rescaled(finalists[0]), finalists[1]}, {rescaled(kEliteA), kEliteB}) ==
          jury_order(finalists, {kEliteA, kEliteB}));
    CHECK(jury_order({finalists[1]}, {kEliteB}) == std::vector<size_t>{2, 1, 0});
    // Ties keep the finalists' order; an elite that does not spread still judges.
    CHECK(jury_order({{1, 1, 3}}, {{2, 2}}) == std::vector<size_t>{2, 0, 1});
}

TEST_CASE("jury: a finalist a member cannot score is judged worst; mismatched inputs are refused") {
    const std::vector<std::vector<double>> finalists = {{5, 2, 1.5}, {NAN, 20, 30}};
    const std::vector<size_t> order = jury_order(finalists, {kEliteA, kEliteB});
    CHECK(order.back() == 0);
    CHECK(jury_order({{1, -INFINITY}}, {{0, 1, NAN}}) == std::vector<size_t>{0, 1});
    CHECK(jury_order({}, {}).empty());
    CHECK_THROWS_WITH_AS(jury_order({{1, 2, 3}, {1, 2}}, {kEliteA, kEliteB}), doctest::Contains("scored 2 finalists"),
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(jury_order({{1, 2}}, {kEliteA, kEliteB}), doctest::Contains("1 members judged, 2 elites"),
                         std::invalid_argument);
}
