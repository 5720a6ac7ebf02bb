#include "features/detail/feature_writers.h"

namespace ansor {
namespace features {
namespace detail {

void write_arithmetic_features(const DefinitionTemplate &t, double iters, double work_scale, float *F) {
    for (int i = 0; i < kArith; i++) F[kArithBegin + i] = slog(t.arith[i] * iters * work_scale);
}

}  // namespace detail
}  // namespace features
}  // namespace ansor
