#include "util/target.h"

#include "util/gpu_target.h"

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

const char *project_cpu_target() { return ANSOR_PROJECT_TARGET; }

std::vector<std::string> cpu_features_missing(const Halide::Target &requested, const Halide::Target &host) {
    using T = Halide::Target;
    std::vector<std::string> missing;
    if (requested.arch != host.arch || requested.bits != host.bits || requested.os != host.os) {
        const Halide::Target bare(requested.os, requested.arch, requested.bits);
        missing.push_back(bare.to_string() + " (this machine is " + Halide::Target(host.os, host.arch, host.bits).to_string() + ")");
        return missing;
    }
    // The x86 features Halide's host detection reports; others (FMA4, ARM's)
    // it cannot tell, so they are not judged here.
    for (auto f : {T::SSE41, T::AVX, T::AVX2, T::FMA, T::F16C, T::AVX512, T::AVX512_KNL, T::AVX512_Skylake,
                   T::AVX512_Cannonlake, T::AVX512_SapphireRapids}) {
        if (requested.has_feature(f) && !host.has_feature(f)) missing.push_back(T::feature_to_name(f));
    }
    return missing;
}

std::string why_this_cpu_cannot_run(const Halide::Target &requested) {
    // measurement_target() has already dropped avx512_sapphirerapids where
    // this CPU lacks its FP16 part, which Halide's host target may still name.
    const std::vector<std::string> missing =
        cpu_features_missing(without_gpu_features(measurement_target(requested)), Halide::get_host_target());
    if (missing.empty()) return "";
    std::string list = missing[0];
    for (size_t i = 1; i < missing.size(); i++) list += ", " + missing[i];
    return "target " + requested.to_string() + " needs " + list +
           ", which this machine's CPU lacks, so its programs cannot run here";
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
