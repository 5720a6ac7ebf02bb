#include "features/detail/feature_writers.h"

#include <algorithm>

namespace ansor {
namespace features {
namespace detail {

// A Func stored at an outer loop (store_at) holds its folded window,
// allocated once per iteration of the store loop; any other Func holds its
// extents, allocated once per iteration of its compute location.
void write_allocation_features(const ModelFunc &f, const DefinitionTemplate &t, const IterationCounts &c,
                               double work_scale, float *F) {
    const std::vector<int64_t> &buffer = f.storage_extents.empty() ? f.extents : f.storage_extents;
    double elems = 1;
    for (int64_t e : buffer) elems *= (double)std::max<int64_t>(1, e);
    const double allocations = c.chain_iters / (double)std::max<int64_t>(1, f.iterations_per_allocation);
    F[kAllocBegin + 0] = slog(elems * t.write_bytes);
    F[kAllocBegin + 1] = slog(elems * allocations * work_scale);
    F[kAllocBegin + 2] = slog(allocations * work_scale);
    F[kAllocBegin + 3] = slog(elems);
}

}  // namespace detail
}  // namespace features
}  // namespace ansor
