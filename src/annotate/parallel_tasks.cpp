#include "annotate/parallel_tasks.h"

#include <algorithm>

namespace ansor {

std::vector<int64_t> coarse_task_factors(int64_t outer_tasks, int64_t extent, int64_t points_per_iteration,
                                         int threads) {
    outer_tasks = std::max<int64_t>(1, outer_tasks);
    points_per_iteration = std::max<int64_t>(1, points_per_iteration);
    const int64_t min_tasks = kBalancedTasksPerThread * std::max(1, threads);
    auto tasks = [&](int64_t f) { return outer_tasks * ((extent + f - 1) / f); };
    if (extent < 2 || points_per_iteration >= kMinPointsPerTask || tasks(1) <= min_tasks) return {};
    // Every power of two the threads allow; of those, the ones whose tasks
    // reach the size, or the coarsest where none does.
    std::vector<int64_t> allowed;
    for (int64_t f = 2; f <= extent && tasks(f) >= min_tasks; f *= 2) allowed.push_back(f);
    std::vector<int64_t> out;
    for (int64_t f : allowed) {
        if (f * points_per_iteration >= kMinPointsPerTask) out.push_back(f);
    }
    if (out.empty() && !allowed.empty()) out.push_back(allowed.back());
    return out;
}

}  // namespace ansor
