// The tuner times programs as RunGen times a built generator: the best of
// samples of back-to-back runs, each sample's time per run. Scripted clocks
// make these checks exact (no real timing).
#include "measure/run_timing.h"

#include <doctest/doctest.h>
#include <halide_benchmark.h>

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
    SampledTime t = time_in_samples(p.run(), SamplingOptions{}, 0, p.clock());
    // 167 runs per sample (0.1 s / 3 / 0.2 ms), 16 or 17 of them slow.
    CHECK(t.best_ms == doctest::Approx((151 * 0.2 + 16 * 20) / 167));
    CHECK(t.median_ms >= t.best_ms);
    CHECK(t.samples == 3);  // each sample took over a third of the 0.4 s cap
    CHECK(t.runs == 3 * 167);
}

TEST_CASE("run timing: steady runs give their time; samples fill the window") {
    ScriptedProgram p{[](int) { return 0.001; }};
    SampledTime t = time_in_samples(p.run(), SamplingOptions{}, 0, p.clock());
    CHECK(t.best_ms == doctest::Approx(1.0));
    CHECK(t.median_ms == doctest::Approx(1.0));
    // 33 runs per sample; three samples fall short of 0.1 s, a fourth passes it.
    CHECK(t.samples == 4);
    CHECK(t.runs == 4 * 33);
    CHECK(p.calls == t.runs + 1);  // one calibrating run
}

TEST_CASE("run timing: no window gives single-run samples, as many as the repeats") {
    MeasureOptions m;
    m.measure_seconds = 0;
    m.repeats = 5;
    ScriptedProgram p{[](int n) { return 0.001 * n; }};
    SampledTime t = time_in_samples(p.run(), sampling_options(m), 0, p.clock());
    CHECK(t.runs == 5);
    CHECK(t.samples == 5);
    CHECK(t.best_ms == doctest::Approx(1.0));  // no calibrating run: the first timed run is the fastest
    CHECK(p.calls == 5);
}

TEST_CASE("run timing: a warm-up that fills a sample replaces the calibrating run") {
    ScriptedProgram p{[](int) { return 0.050; }};
    SampledTime t = time_in_samples(p.run(), SamplingOptions{}, 0.050, p.clock());
    CHECK(p.calls == t.runs);
    CHECK(t.runs == t.samples);
    CHECK(t.best_ms == doctest::Approx(50.0));
}

TEST_CASE("run timing: max_runs caps the runs of all samples together") {
    SamplingOptions o;
    o.min_seconds = 30;
    o.max_seconds = 120;
    o.max_runs = 40;
    ScriptedProgram p{[](int) { return 1e-6; }};
    SampledTime t = time_in_samples(p.run(), o, 0, p.clock());
    CHECK(t.runs == 3 * (40 / 3));
    CHECK(t.samples == 3);
}
