// Helpers shared by the operator generators (generators/ops/*.cpp).
#pragma once

#include "Halide.h"

#include <vector>

namespace ansor_ops {

// Output extent of a sliding window: input extent `in`, kernel `k`,
// stride `s`, padding `p` on both sides, dilation `d`.
inline int window_out(int in, int k, int s, int p, int d = 1) {
    return (in + 2 * p - d * (k - 1) - 1) / s + 1;
}

// `f` read as zero outside [0, extents[i]) in every dimension i whose
// extent is > 0; dimensions with extent 0 are left unbounded. Where no
// padding is `needed` (a convolution with p == 0 stays in bounds), `f` is
// returned as is.
inline Halide::Func zero_pad(const Halide::Func &f, const std::vector<int> &extents,
                             bool needed = true) {
    if (!needed) return f;
    Halide::Region bounds;
    for (int e : extents) {
        bounds.push_back(e > 0 ? Halide::Range(0, e) : Halide::Range());
    }
    return Halide::BoundaryConditions::constant_exterior(f, 0.f, bounds);
}

// Estimates {0, extent} for every dimension, innermost (Halide dim 0) first.
inline Halide::Region extents(const std::vector<int> &dims) {
    Halide::Region r;
    for (int e : dims) r.push_back(Halide::Range(0, e));
    return r;
}

}  // namespace ansor_ops

// The schedule-paste reproduction test (test/integration/CMakeLists.txt)
// rebuilds a generator with ANSOR_PASTED_SCHEDULE_HEADER naming a schedule
// the plugin wrote with `-e schedule`, and ANSOR_PASTED_SCHEDULE_FUNCTION
// naming the apply_schedule_<name> function in it: the generator then
// applies that schedule itself, exactly as a user who pasted it would.
// In every other build ANSOR_PASTED_SCHEDULE() expands to nothing.
#ifdef ANSOR_PASTED_SCHEDULE_HEADER
#include ANSOR_PASTED_SCHEDULE_HEADER
#define ANSOR_PASTED_SCHEDULE() \
    void schedule() { ANSOR_PASTED_SCHEDULE_FUNCTION(get_pipeline(), get_target()); }
#else
#define ANSOR_PASTED_SCHEDULE()
#endif
