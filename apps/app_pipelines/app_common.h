// Helpers shared by the app generators (apps/app_pipelines/*.cpp).
#pragma once

#include <Halide.h>

#include <vector>

namespace ansor_apps {

// Estimates {0, extent} for every dimension, innermost (Halide dim 0) first.
inline Halide::Region estimate_extents(const std::vector<int> &dims) {
    Halide::Region r;
    for (int e : dims) r.push_back(Halide::Range(0, e));
    return r;
}

// Vector widths of the project's AVX-512 target: one 512-bit register.
constexpr int kFloatLanes = 16;
constexpr int kU16Lanes = 32;
constexpr int kU8Lanes = 64;

}  // namespace ansor_apps
