#pragma once
#include <Halide.h>

namespace ansor {

// The target candidates are JIT-compiled for: the requested CPU target minus
// what only matters to ahead-of-time files, and minus AVX512-FP16
// (avx512_sapphirerapids) when this CPU lacks it (Zen 5 does) so that 16-bit
// pipelines do not die with SIGILL.
Halide::Target measurement_target(const Halide::Target &requested);
bool cpu_has_avx512_fp16();

}  // namespace ansor

namespace ansor {

// The CPU part of a GPU target: every GPU API (CUDA, OpenCL, Metal,
// D3D12Compute, OpenGLCompute) and its options (cuda_capability_*, cl_*)
// removed. The reference of a GPU measurement runs on it.
Halide::Target without_gpu_features(const Halide::Target &target);

// The same target with OpenCL as its only GPU API (and cl_doubles when the
// target had CUDA, which has doubles): a CUDA schedule built for it runs the
// same directives on PoCL.
Halide::Target opencl_twin(const Halide::Target &target);

}  // namespace ansor
