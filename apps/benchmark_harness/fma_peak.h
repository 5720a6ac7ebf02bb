#pragma once
// The machine's peak single-precision FMA throughput, measured: every thread
// runs independent chains of vector fused multiply-adds that never touch
// memory, so the result is what the FMA units can do, the ceiling any
// matrix product or convolution is judged against ("% of peak").

namespace ansor_harness {

struct FmaPeak {
    double gflops = 0;     // best of several repetitions, all threads together
    int threads = 0;
    int vector_lanes = 0;  // 16 (AVX-512) or 8 (AVX2)
};

// About 0.5 s of work. Uses AVX-512 when the CPU has it, AVX2+FMA otherwise;
// gflops is 0 where neither is available.
FmaPeak measure_fma_peak(int threads);

}  // namespace ansor_harness
