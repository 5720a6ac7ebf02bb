#include "search/idle_threads.h"

#include <algorithm>
#include <vector>

namespace ansor {

namespace {

// Below this many iterations a stage's time is dominated by its launch and
// memory traffic, not by how many threads share it.
constexpr double kMinIterationsWorthThreads = 1 << 16;
// A stage with less than this share of the busiest root stage's iterations
// is not the bulk of the work.
constexpr double kBulkShare = 1.0 / 8;

double iterations(const ModelStage &s) {
    double n = 1;
    for (const ModelLoop &l : s.loops) n *= (double)std::max<int64_t>(1, l.extent);
    return n;
}

double parallel_iterations(const ModelStage &s) {
    double n = 1;
    for (const ModelLoop &l : s.loops) {
        if (l.annotation == Annotation::Parallel) n *= (double)std::max<int64_t>(1, l.extent);
    }
    return n;
}

}  // namespace

std::string idle_threads(const LoopNest &nest, int parallelism) {
    if (parallelism < 2) return "";
    double most = 0;
    for (const ModelFunc &f : nest.funcs()) {
        if (f.location.kind != LocationKind::Root) continue;
        for (const ModelStage &s : f.stages) most = std::max(most, iterations(s));
    }
    const double bulk = std::max(kMinIterationsWorthThreads, kBulkShare * most);
    for (const ModelFunc &f : nest.funcs()) {
        if (f.location.kind != LocationKind::Root) continue;
        for (size_t i = 0; i < f.stages.size(); i++) {
            const ModelStage &s = f.stages[i];
            if (iterations(s) < bulk) continue;
            const double parallel = parallel_iterations(s);
            if (parallel >= parallelism) continue;
            return f.name + (i ? ".update(" + std::to_string(i - 1) + ")" : "") + " runs " +
                   std::to_string((long long)parallel) + " parallel iteration(s) for " + std::to_string(parallelism) +
                   " threads";
        }
    }
    return "";
}

}  // namespace ansor
