// The tuner times programs as RunGen times a built generator: the best of
// samples of back-to-back runs, each sample's time per run. Scripted clocks
// make these checks exact (no real timing). Before timing, the allocator
// is put where a fresh process has it after a program's first run.
#include "measure/fresh_process_heap.h"
#include "measure/measurer.h"
#include "measure/run_timing.h"
#include "measure_test_support.h"

#include <doctest/doctest.h>
#include <halide_benchmark.h>
#include <malloc.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace ansor;

namespace {

// A program whose n-th run (from 1) takes cost(n) seconds on a scripted clock.
struct ScriptedProgram {
    std::function<double(int)> cost;
    double now = 0;
    int calls = 0;
    std::function<void()> run() {
        return [this] { now += cost(++calls); };
    }
    SecondsClock clock() {
        return [this] { return now; };
    }
};

}  // namespace

TEST_CASE("run timing: the default window is RunGen's benchmark configuration") {
    SamplingOptions s = sampling_options(MeasureOptions{});
    Halide::Tools::BenchmarkConfig rungen;
    CHECK(s.min_seconds == doctest::Approx(rungen.min_time));
    CHECK(s.max_seconds == doctest::Approx(rungen.max_time));
    CHECK(s.accuracy == doctest::Approx(rungen.accuracy));
    CHECK(s.min_samples == 3);
}

TEST_CASE("run timing: a run held up now and then counts, as it does for the user") {
    // Every tenth run waits 20 ms for a CPU (a preempted run on a shared
    // machine), the others take 0.2 ms. A single run's min or median says
    // 0.2 ms; RunGen's samples, and so the user, see about 2.2 ms per run.
    ScriptedProgram p{[](int n) { return n % 10 == 0 ? 0.020 : 0.0002; }};
    SampledTime t = time_in_samples(p.run(), SamplingOptions{}, p.clock());
    // Calibration: three single runs (0.2 ms each) give 167 runs per sample
    // (0.1 s / 3 / 0.2 ms); the samples hold 17, 16 and 17 slow runs.
    CHECK(t.best_ms == doctest::Approx((151 * 0.2 + 16 * 20) / 167));
    CHECK(t.median_ms >= t.best_ms);
    CHECK(t.samples == 3);  // each sample took over a third of the 0.4 s cap
    CHECK(t.runs == 3 * 167);
}

TEST_CASE("run timing: one run held up while calibrating does not shorten the samples") {
    // The first run takes 50 ms (page faults, a preemption); if it sized the
    // samples they would hold one run each, and the fastest single run would
    // stand for the program again.
    ScriptedProgram p{[](int n) { return n == 1 ? 0.050 : 0.0002; }};
    SampledTime t = time_in_samples(p.run(), SamplingOptions{}, p.clock());
    CHECK(t.runs / t.samples == 167);
    CHECK(t.best_ms == doctest::Approx(0.2));
}

TEST_CASE("run timing: steady runs give their time; samples fill the window") {
    ScriptedProgram p{[](int) { return 0.001; }};
    SampledTime t = time_in_samples(p.run(), SamplingOptions{}, p.clock());
    CHECK(t.best_ms == doctest::Approx(1.0));
    CHECK(t.median_ms == doctest::Approx(1.0));
    // Rounds of 1 and 33 runs per sample fall short of 0.1 s; 66 reach it.
    CHECK(t.samples == 3);
    CHECK(t.runs == 3 * 66);
    CHECK(p.calls == 3 * (1 + 33 + 66));
}

TEST_CASE("run timing: no window gives single-run samples, as many as the repeats") {
    MeasureOptions m;
    m.measure_seconds = 0;
    m.repeats = 5;
    ScriptedProgram p{[](int n) { return 0.001 * n; }};
    SampledTime t = time_in_samples(p.run(), sampling_options(m), p.clock());
    CHECK(t.runs == 5);
    CHECK(t.samples == 5);
    CHECK(t.best_ms == doctest::Approx(1.0));
    CHECK(p.calls == 5);
}

TEST_CASE("run timing: a slow program stops at three single runs") {
    MeasureOptions m;  // repeats 10, which a 0.5 s program would take 5 s to give
    ScriptedProgram p{[](int) { return 0.5; }};
    SampledTime t = time_in_samples(p.run(), sampling_options(m), p.clock());
    CHECK(p.calls == 3);
    CHECK(t.runs == 3);
    CHECK(t.best_ms == doctest::Approx(500.0));
}

TEST_CASE("run timing: max_runs caps the counted runs") {
    SamplingOptions o;
    o.min_seconds = 30;
    o.max_seconds = 120;
    o.max_runs = 40;
    ScriptedProgram p{[](int) { return 1e-6; }};
    SampledTime t = time_in_samples(p.run(), o, p.clock());
    CHECK(t.runs == 3 * (40 / 3));
    CHECK(t.samples == 3);
}

namespace {

constexpr const char *kFreshHeapTest =
    "run timing: the heap starts as a fresh process's and takes its thresholds after a first run";
constexpr const char *kFreshHeapEnv = "ANSOR_TEST_FRESH_HEAP";

}  // namespace

// Runs in a fresh copy of this test binary: in the test process, blocks that
// earlier test cases freed may lie in the heap already and serve a large
// allocation without a mapping, whatever the threshold.
TEST_CASE(kFreshHeapTest) {
    if (!ansor_test::in_fresh_copy_of_this_test(kFreshHeapTest, kFreshHeapEnv)) return;
    // 16 MiB: a float image of 2048 x 2048 computed at root.
    const size_t bytes = 16 << 20;
    auto mapped_while_held = [&] {
        const size_t before = mallinfo2().hblkhd;  // bytes in blocks mapped for one allocation
        void *p = std::malloc(bytes);
        REQUIRE(p);
        std::memset(p, 1, bytes);
        const size_t during = mallinfo2().hblkhd;
        std::free(p);
        return during > before;
    };
    // However this process allocated before: as a fresh process starts,
    // glibc maps every block over 128 KiB.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    ansor::start_heap_as_a_fresh_process();
    CHECK(mapped_while_held());
    // After a first run that freed such a block, it comes from the heap.
    ansor::allocate_as_a_fresh_process_after_its_first_run(bytes);
    CHECK_FALSE(mapped_while_held());
    // Starting again gives the freed block's pages back and maps it again.
    ansor::start_heap_as_a_fresh_process();
    CHECK(mapped_while_held());
    // A first run whose largest block is small leaves the start's thresholds.
    ansor::allocate_as_a_fresh_process_after_its_first_run(4096);
    CHECK(mapped_while_held());
}

TEST_CASE("run timing: a fresh process's thresholds follow the largest block freed, up to 32 MiB") {
    const ansor::HeapThresholds none = ansor::fresh_process_thresholds_after(0);
    CHECK(none.mmap_bytes == 128u << 10);
    CHECK(none.trim_bytes == 128u << 10);
    const ansor::HeapThresholds small = ansor::fresh_process_thresholds_after(64 << 10);
    CHECK(small.mmap_bytes == 128u << 10);
    // The mapped chunk: the request and its header, in whole pages.
    const ansor::HeapThresholds image = ansor::fresh_process_thresholds_after(15 << 20);
    CHECK(image.mmap_bytes == (15u << 20) + 4096);
    CHECK(image.trim_bytes == 2 * image.mmap_bytes);
    const ansor::HeapThresholds huge = ansor::fresh_process_thresholds_after(40 << 20);
    CHECK(huge.mmap_bytes == 128u << 10);
}

TEST_CASE("run timing: the recording allocator aligns blocks and keeps the largest request up to 32 MiB") {
    ansor::reset_largest_block();
    void *a = ansor::recording_halide_malloc(1000);
    void *b = ansor::recording_halide_malloc(3 << 20);
    void *c = ansor::recording_halide_malloc(64 << 20);  // mapped whatever the thresholds: not recorded
    REQUIRE(a);
    REQUIRE(b);
    REQUIRE(c);
    CHECK((uintptr_t)a % 128 == 0);
    CHECK((uintptr_t)b % 128 == 0);
    CHECK((uintptr_t)c % 128 == 0);
    std::memset(b, 7, 3 << 20);
    CHECK(ansor::largest_block() == (3u << 20) + 128);
    ansor::recording_halide_free(a);
    ansor::recording_halide_free(b);
    ansor::recording_halide_free(c);
    ansor::recording_halide_free(nullptr);
    ansor::reset_largest_block();
    CHECK(ansor::largest_block() == 0);
}
