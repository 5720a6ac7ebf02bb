#include "features/detail/feature_writers.h"

#include <algorithm>

namespace ansor {
namespace features {
namespace detail {

double work_scale_of(const PipelineDAG &dag) {
    auto points = [](const std::vector<DimRange> &region) {
        double p = 1;
        for (const DimRange &r : region) p *= (double)std::max<int64_t>(1, r.extent);
        return p;
    };
    double outputs = 0, inputs = 0;
    for (const Node &n : dag.nodes()) {
        if (n.is_output) outputs += points(n.region);
    }
    for (const InputInfo &in : dag.inputs()) {
        if (in.dimensions > 0) inputs += points(in.region);
    }
    return kWorkPoints / std::max({1.0, outputs, inputs});
}

void write_arithmetic_features(const DefinitionTemplate &t, double iters, double work_scale, float *F) {
    for (int i = 0; i < kArith; i++) F[kArithBegin + i] = slog(t.arith[i] * iters * work_scale);
}

}  // namespace detail
}  // namespace features
}  // namespace ansor
