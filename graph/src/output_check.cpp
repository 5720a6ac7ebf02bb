#include "output_check.h"

#include <cmath>

namespace ansor_graph {

TensorCheck check_tensor(const std::string &name, const Tensor &got, const Tensor &want) {
    TensorCheck c;
    c.name = name;
    if (got.shape != want.shape) {
        c.error = INFINITY;
        return c;
    }
    double worst = 0;
    for (int64_t i = 0; i < want.size(); i++) {
        c.scale = std::max(c.scale, (double)std::fabs(want[i]));
        const double d = std::fabs((double)got[i] - want[i]);
        if (std::isnan(d)) {
            c.error = INFINITY;
            return c;
        }
        worst = std::max(worst, d);
    }
    c.error = worst / std::max(c.scale, 1e-6);
    return c;
}

}  // namespace ansor_graph
