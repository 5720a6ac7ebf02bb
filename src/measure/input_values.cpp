#include "measure/input_values.h"
#include "util/splitmix.h"

#include "dag/pipeline_dag.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ansor {

using namespace Halide;

InputValueRange input_value_range(const Type &t, int64_t largest_reduction_points) {
    if (t.is_float()) return {-1, 1};
    if (t.bits() == 1) return {0, 1};
    if (t.bits() == 8) return {t.is_int() ? -128.0 : 0.0, t.is_int() ? 127.0 : 255.0};
    const double k = (double)std::max<int64_t>(1, largest_reduction_points);
    const double overflow_safe = std::floor(std::sqrt(std::ldexp(1.0, 31) / (16 * k)));
    const double type_max = t.is_int() ? std::ldexp(1.0, t.bits() - 1) - 1 : std::ldexp(1.0, t.bits()) - 1;
    const double r = std::max(1.0, std::min(type_max, overflow_safe));
    return {t.is_int() ? -r : 0.0, r};
}

int64_t largest_reduction(const PipelineDAG &dag) {
    int64_t k = 1;
    for (const Node &n : dag.nodes()) {
        for (const StageInfo &s : n.stages) k = std::max(k, s.reduction_points());
    }
    return k;
}

namespace {

template<typename T>
void store(void *p, size_t i, T v) {
    static_cast<T *>(p)[i] = v;
}

}  // namespace

namespace {

uint64_t mix(uint64_t z) { return splitmix64(z); }

}  // namespace

void fill_random(Buffer<> &b, uint64_t seed, const InputValueRange &range) {
    const Type t = b.type();
    const int dims = b.dimensions();
    const size_t n = b.number_of_elements();
    void *p = b.data();
    // Walk the (dense) buffer in memory order, its coordinates alongside.
    std::vector<int64_t> at(dims);
    for (int d = 0; d < dims; d++) at[d] = b.dim(d).min();
    const double span = range.hi - range.lo;
    const uint64_t choices = t.is_float() ? 0 : (uint64_t)(range.hi - range.lo) + 1;
    for (size_t i = 0; i < n; i++) {
        uint64_t h = mix(seed);
        for (int d = 0; d < dims; d++) h = mix(h ^ (uint64_t)at[d]);
        if (t.is_float()) {
            const double v = range.lo + span * (double)(h >> 11) * std::ldexp(1.0, -53);
            if (t.is_bfloat()) store<uint16_t>(p, i, bfloat16_t(v).to_bits());
            else if (t.bits() == 16) store<uint16_t>(p, i, float16_t(v).to_bits());
            else if (t.bits() == 32) store<float>(p, i, (float)v);
            else store<double>(p, i, v);
        } else {
            const int64_t v = (int64_t)range.lo + (int64_t)(h % choices);
            switch (t.bits()) {
            case 1:
            case 8: store<uint8_t>(p, i, (uint8_t)v); break;
            case 16: store<uint16_t>(p, i, (uint16_t)v); break;
            case 32: store<uint32_t>(p, i, (uint32_t)v); break;
            default: store<uint64_t>(p, i, (uint64_t)v); break;
            }
        }
        for (int d = 0; d < dims; d++) {
            if (++at[d] < (int64_t)b.dim(d).min() + b.dim(d).extent()) break;
            at[d] = b.dim(d).min();
        }
    }
}

}  // namespace ansor
