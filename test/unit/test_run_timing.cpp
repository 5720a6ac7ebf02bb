// The tuner times programs as RunGen times a built generator: the best of
// samples of back-to-back runs, each sample's time per run. Scripted clocks
// make these checks exact (no real timing). The allocator is put in a
// program's steady state before timing.
#include "measure/run_timing.h"
#include "measure/subprocess.h"

#include <doctest/doctest.h>
#include <halide_benchmark.h>
#include <malloc.h>

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
    "run timing: a pipeline's large buffers come from the heap however the process allocated before";
constexpr const char *kFreshHeapEnv = "ANSOR_TEST_FRESH_HEAP";

}  // namespace

// Runs in a fresh copy of this test binary: in the test process, blocks that
// earlier test cases freed may lie in the heap already and serve a large
// allocation without a mapping, whatever the threshold.
TEST_CASE(kFreshHeapTest) {
    if (!std::getenv(kFreshHeapEnv)) {
        const ProcessResult child = run_process({"/proc/self/exe", std::string("--test-case=") + kFreshHeapTest},
                                                {std::string(kFreshHeapEnv) + "=1"});
        INFO(child.output);
        CHECK(child.exit_code == 0);
        CHECK(child.output.find("test cases: 1 | 1 passed") != std::string::npos);  // the filter found the case
        return;
    }
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
    // As a fresh process starts: glibc maps every block over 128 KiB.
    mallopt(M_MMAP_THRESHOLD, 128 << 10);
    CHECK(mapped_while_held());
    ansor::allocate_as_after_a_first_run();
    CHECK_FALSE(mapped_while_held());
}
