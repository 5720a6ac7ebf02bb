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

namespace ansor {

Halide::Target without_gpu_features(const Halide::Target &target) {
    using T = Halide::Target;
    Halide::Target t = target;
    for (int i = 0; i < (int)T::FeatureEnd; i++) {
        const auto f = (T::Feature)i;
        const std::string name = T::feature_to_name(f);
        const bool gpu = name.rfind("cuda", 0) == 0 || name.rfind("cl_", 0) == 0 || name == "opencl" ||
                         name == "metal" || name == "d3d12compute" || name == "openglcompute";
        if (gpu && t.has_feature(f)) t = t.without_feature(f);
    }
    return t;
}

Halide::Target opencl_twin(const Halide::Target &target) {
    using T = Halide::Target;
    Halide::Target t = without_gpu_features(target).with_feature(T::OpenCL);
    for (auto f : {T::CLDoubles, T::CLHalf}) {
        if (target.has_feature(f) || (f == T::CLDoubles && target.has_feature(T::CUDA))) t = t.with_feature(f);
    }
    return t;
}

}  // namespace ansor
