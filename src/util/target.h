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
