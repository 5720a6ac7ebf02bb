#pragma once
// The zero-shot pick of a blended cost model (model/model_blend.h): a
// program every member rates among its best, rather than the top of the
// blend's sum.
//
// Why: a zero-shot program is the best-ranked of thousands evolved under a
// model, and the top of such a population is where the model overrates
// most (the optimiser's curse): each model's zero-shot picks include a few
// programs several times slower than its typical pick, and different
// models' disasters fall on different pipelines (docs/cost_model.md). The
// top of the blend's sum still holds programs one member overrates wildly.
//
// How: each member evolves its own population and keeps its best programs,
// its elite; the finalists are the first few of every elite. A member
// judges a program by how far its score lies above or below the mean of
// its own elite, in standard deviations of the elite's scores (so members
// whose scores have no common unit judge on one scale), and a finalist's
// grade is its worst judgement. The order is by grade, best first.
#include <cstddef>
#include <vector>

namespace ansor {

// How many of its best programs each member keeps as its elite, and how
// many of those are finalists.
constexpr int kJuryElite = 64;
constexpr int kJuryFinalists = 8;

// finalist_scores[m][i]: member m's score of finalist i; elite_scores[m]:
// member m's scores of its own elite (higher is better). A score that is not
// finite is the worst judgement. Returns the finalists' indices by grade,
// ties in finalist order. Throws std::invalid_argument unless there is one
// elite per member and every member scores every finalist.
std::vector<size_t> jury_order(const std::vector<std::vector<double>> &finalist_scores,
                               const std::vector<std::vector<double>> &elite_scores);

}  // namespace ansor
