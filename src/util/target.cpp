#include "util/target.h"

#include <cpuid.h>

namespace ansor {

bool cpu_has_avx512_fp16() {
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
    return (d >> 23) & 1;
}

Halide::Target measurement_target(const Halide::Target &requested) {
    using T = Halide::Target;
    Halide::Target t = requested;
    for (auto f : {T::NoRuntime, T::UserContext, T::CPlusPlusMangling, T::Matlab, T::JIT}) t = t.without_feature(f);
    if (t.has_feature(T::AVX512_SapphireRapids) && !cpu_has_avx512_fp16()) {
        t = t.without_feature(T::AVX512_SapphireRapids);
    }
    return t;
}

}  // namespace ansor
