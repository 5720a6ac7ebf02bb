#pragma once
// Parallel tasks big enough to pay for their dispatch. Halide runs each
// iteration of a parallel loop as one task of its thread pool, at a cost of
// about half a microsecond each. A Func at root that no rule tiled has its
// rows as leading loops, so fusing them until the threads balance can leave
// thousands of rows of a few microseconds each: non-local means' `sums`
// initialised in 1,536 tasks of 768 floats ran 1 ms slower (of 15) than in
// 48 tasks of 32 rows. The annotator then splits the innermost fused loop
// and parallelises its outer piece, so that each task covers several rows.
#include <cstdint>
#include <vector>

namespace ansor {

// Points of a stage that one task should cover at least.
constexpr int64_t kMinPointsPerTask = 16384;
// Tasks per thread that balance the threads whatever their count
// (balances_threads); coarser tasks keep at least that many.
constexpr int64_t kBalancedTasksPerThread = 8;
// Share of parallel loops with tiny tasks that are drawn coarse; the rest
// keep one task per iteration, so the search still sees both.
constexpr double kCoarseTaskShare = 0.75;

// The split factors (powers of two) of the innermost fused loop of a
// parallel loop that keep at least kBalancedTasksPerThread tasks per thread
// and make each task cover at least kMinPointsPerTask points of the stage
// (the coarsest such factor alone where none reaches that size). `outer_tasks` is the
// product of the fused loops outside it, `extent` its extent,
// `points_per_iteration` the stage's points inside one of its iterations.
// Empty where the tasks are big enough already, or too few to coarsen.
std::vector<int64_t> coarse_task_factors(int64_t outer_tasks, int64_t extent, int64_t points_per_iteration,
                                         int threads);

}  // namespace ansor
