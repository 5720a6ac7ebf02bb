#pragma once
#include <Halide.h>

#include <string>
#include <vector>

namespace ansor {

// The target candidates are JIT-compiled for: the requested CPU target minus
// what only matters to ahead-of-time files, and minus AVX512-FP16
// (avx512_sapphirerapids) when this CPU lacks it (Zen 5 does) so that 16-bit
// pipelines do not die with SIGILL.
Halide::Target measurement_target(const Halide::Target &requested);
bool cpu_has_avx512_fp16();

// The CPU target this project's tools, tests and generator builds use:
// CMake's ANSOR_TARGET, chosen for the building machine's CPU (the AVX-512
// target where it has AVX-512 with IFMA and VBMI, else Skylake's AVX-512,
// else AVX2, else SSE4.1; CMakeLists.txt).
const char *project_cpu_target();

// The AVX-512 target of the machines the shipped corpus and cost model were
// measured on. Tools that select records by target (training, accuracy)
// default to it; tests of 16-lane structure that run nothing use it.
constexpr const char *kAvx512Target = "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41";

// What of `requested` a CPU described by `host` cannot run, by Halide's
// feature names ("avx512_skylake"), or the architecture, bit width or OS
// when those differ; empty when it runs everything the target asks for.
std::vector<std::string> cpu_features_missing(const Halide::Target &requested, const Halide::Target &host);

// Why this machine cannot run programs built for `requested` (its CPU part),
// naming what it lacks; empty when it can.
std::string why_this_cpu_cannot_run(const Halide::Target &requested);

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
