#include "fma_peak.h"

#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace ansor_harness {

namespace {

// Twelve independent accumulators, more than FMA latency x FMA ports on
// current x86 cores (4 cycles x 2 ports), so the chains never wait on each
// other. Written out one by one: a loop over an array of vectors makes GCC
// keep them in memory, and store-forwarding latency would be measured
// instead. Returns a value that depends on every chain so none is elided.
#define ANSOR_TWELVE(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)

__attribute__((target("avx512f"))) float fma_chains_avx512(long iterations) {
#define ANSOR_INIT(i) __m512 a##i = _mm512_set1_ps(1.0f + i * 1e-3f);
#define ANSOR_FMA(i) a##i = _mm512_fmadd_ps(a##i, m, c);
#define ANSOR_SUM(i) s = _mm512_add_ps(s, a##i);
    ANSOR_TWELVE(ANSOR_INIT)
    const __m512 m = _mm512_set1_ps(0.999999f), c = _mm512_set1_ps(1e-6f);
    for (long it = 0; it < iterations; it++) {
        ANSOR_TWELVE(ANSOR_FMA)
    }
    __m512 s = _mm512_setzero_ps();
    ANSOR_TWELVE(ANSOR_SUM)
    return _mm512_reduce_add_ps(s);
#undef ANSOR_INIT
#undef ANSOR_FMA
#undef ANSOR_SUM
}

__attribute__((target("avx2,fma"))) float fma_chains_avx2(long iterations) {
#define ANSOR_INIT(i) __m256 a##i = _mm256_set1_ps(1.0f + i * 1e-3f);
#define ANSOR_FMA(i) a##i = _mm256_fmadd_ps(a##i, m, c);
#define ANSOR_SUM(i) s = _mm256_add_ps(s, a##i);
    ANSOR_TWELVE(ANSOR_INIT)
    const __m256 m = _mm256_set1_ps(0.999999f), c = _mm256_set1_ps(1e-6f);
    for (long it = 0; it < iterations; it++) {
        ANSOR_TWELVE(ANSOR_FMA)
    }
    __m256 s = _mm256_setzero_ps();
    ANSOR_TWELVE(ANSOR_SUM)
    alignas(32) float out[8];
    _mm256_store_ps(out, s);
    float sum = 0;
    for (float x : out) sum += x;
    return sum;
#undef ANSOR_INIT
#undef ANSOR_FMA
#undef ANSOR_SUM
}
#undef ANSOR_TWELVE

std::atomic<float> sink{0};

}  // namespace

FmaPeak measure_fma_peak(int threads) {
    FmaPeak peak;
    peak.threads = std::max(1, threads);
    const bool avx512 = __builtin_cpu_supports("avx512f");
    if (!avx512 && !(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))) return peak;
    peak.vector_lanes = avx512 ? 16 : 8;
    const long iterations = 2'000'000;  // 24M FMAs per thread: ~0.05 s at 2 FMAs per cycle
    for (int repetition = 0; repetition < 8; repetition++) {
        auto start = std::chrono::steady_clock::now();
        std::vector<std::thread> pool;
        for (int t = 0; t < peak.threads; t++) {
            pool.emplace_back([&] { sink = sink + (avx512 ? fma_chains_avx512(iterations) : fma_chains_avx2(iterations)); });
        }
        for (auto &t : pool) t.join();
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        double flops = 2.0 * 12 * peak.vector_lanes * (double)iterations * peak.threads;
        peak.gflops = std::max(peak.gflops, flops / seconds * 1e-9);
    }
    return peak;
}

}  // namespace ansor_harness
