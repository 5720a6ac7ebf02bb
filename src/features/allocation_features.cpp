#include "features/detail/feature_writers.h"

#include <algorithm>

namespace ansor {
namespace features {
namespace detail {

void write_allocation_features(const ModelFunc &f, const DefinitionTemplate &t, const IterationCounts &c, float *F) {
    double elems = 1;
    for (int64_t e : f.extents) elems *= (double)std::max<int64_t>(1, e);
    F[kAllocBegin + 0] = slog(elems * t.write_bytes);
    F[kAllocBegin + 1] = slog(elems * c.chain_iters);
    F[kAllocBegin + 2] = slog(c.chain_iters);
    F[kAllocBegin + 3] = slog(elems);
}

}  // namespace detail
}  // namespace features
}  // namespace ansor
