#include "measure/input_values.h"

#include "dag/pipeline_dag.h"

#include <algorithm>
#include <cmath>
#include <random>

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

void fill_random(Buffer<> &b, uint64_t seed, const InputValueRange &range) {
    std::mt19937_64 rng(seed);
    const Type t = b.type();
    const size_t n = b.number_of_elements();
    void *p = b.data();
    if (t.is_float()) {
        std::uniform_real_distribution<double> real(range.lo, range.hi);
        for (size_t i = 0; i < n; i++) {
            double v = real(rng);
            if (t.is_bfloat()) store<uint16_t>(p, i, bfloat16_t(v).to_bits());
            else if (t.bits() == 16) store<uint16_t>(p, i, float16_t(v).to_bits());
            else if (t.bits() == 32) store<float>(p, i, (float)v);
            else store<double>(p, i, v);
        }
        return;
    }
    std::uniform_int_distribution<int64_t> integer((int64_t)range.lo, (int64_t)range.hi);
    for (size_t i = 0; i < n; i++) {
        const int64_t v = integer(rng);
        switch (t.bits()) {
        case 1:
        case 8: store<uint8_t>(p, i, (uint8_t)v); break;
        case 16: store<uint16_t>(p, i, (uint16_t)v); break;
        case 32: store<uint32_t>(p, i, (uint32_t)v); break;
        default: store<uint64_t>(p, i, (uint64_t)v); break;
        }
    }
}

}  // namespace ansor
