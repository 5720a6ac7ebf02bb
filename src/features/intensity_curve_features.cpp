#include "features/detail/feature_writers.h"

namespace ansor {
namespace features {
namespace detail {

// Arithmetic intensity curve: ops / bytes against log2(1 + ops), level
// by level from the innermost loop out, sampled at ten even steps
// (linear interpolation between levels).
void write_intensity_curve_features(const std::vector<double> &level_x, const std::vector<double> &level_y,
                                    float *F) {
    const int np = (int)level_x.size();
    if (np == 0) return;
    const double xmax = level_x.back();
    int p = 0;
    for (int i = 0; i < kCurvePoints; i++) {
        double x = xmax * (i + 1) / kCurvePoints;
        while (p < np - 1 && level_x[p] < x - 1e-9) p++;
        double y;
        if (p == 0 || level_x[p] <= level_x[p - 1]) {
            y = level_y[p];
        } else {
            double r = (x - level_x[p - 1]) / (level_x[p] - level_x[p - 1]);
            y = level_y[p - 1] + r * (level_y[p] - level_y[p - 1]);
        }
        F[kCurveBegin + i] = (float)y;
    }
}

}  // namespace detail
}  // namespace features
}  // namespace ansor
