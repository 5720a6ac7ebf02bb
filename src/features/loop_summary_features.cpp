#include "features/detail/feature_writers.h"

namespace ansor {
namespace features {
namespace detail {

void write_loop_summary_features(const ModelStage &stage, const IterationCounts &c, double work_scale, float *F) {
    F[kOtherBegin + 0] = slog(c.iters * work_scale);
    F[kOtherBegin + 1] = (float)c.real_loops;
    F[kOtherBegin + 2] = slog(stage.auto_unroll_max_step);
}

}  // namespace detail
}  // namespace features
}  // namespace ansor
