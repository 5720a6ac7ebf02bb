// ForkMeasurer with several builders: candidates compile in parallel, the
// compiled ones are timed one at a time, and the results are what one
// builder gives, in the candidates' order.
#include "measure/measurer.h"
#include "sketch/sketch_generator.h"
#include "search/program_sampler.h"
#include "test_pipelines.h"
#include "util/errors.h"
#include "util/target.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>

using namespace ansor;

namespace {

Halide::Target cpu() {
    return Halide::Target(ansor::project_cpu_target());
}

MeasureOptions options(int builders) {
    MeasureOptions o;
    o.target = cpu();
    o.threads = 2;
    o.repeats = 2;
    o.measure_seconds = 0;
    // Far above any sampled program's compile (a few seconds), so that a
    // verdict never depends on how busy the machine is.
    o.timeout_s = 180;
    o.builders = builders;
    return o;
}

// `count` distinct random programs of the pipeline, as the search samples
// them, with small tiles and unrolling: the search's own limits allow a
// 48 x 8 unrolled body of vectors, which took over 60 s to compile on a
// machine running other tests.
std::vector<State> sampled(const PipelineDAG &dag, size_t count, uint64_t seed) {
    AnnotationOptions ao;
    ao.parallelism = 2;
    ao.max_innermost_factor = 8;
    ao.max_reduction_factor = 8;
    ao.auto_unroll_steps = {0, 16};
    RandomAnnotator annotator(dag, cpu(), ao);
    ProgramSampler sampler(generate_sketches({dag, cpu()}), annotator);
    std::mt19937_64 rng(seed);
    std::vector<State> out;
    std::set<std::string> keys;
    for (int tries = 0; out.size() < count && tries < 200; tries++) {
        std::optional<State> s = sampler.sample(rng);
        if (s && keys.insert(s->key()).second) out.push_back(*s);
    }
    REQUIRE(out.size() == count);
    return out;
}

// Names a loop the stage does not have: the child fails before compiling.
State broken(const PipelineDAG &dag) {
    State s(dag);
    s.add(std::make_shared<AnnotateStep>(ansor_test::resolve(dag, "matmul"), 0, "no_such_loop", Annotation::Parallel));
    return s;
}

// Unrolls 64 x 256 copies of the matmul update's body: LLVM takes far
// longer over it than over any sampled program.
State slow_to_compile(const PipelineDAG &dag) {
    const std::string mm = ansor_test::resolve(dag, "matmul");
    State s(dag);
    s.add(std::make_shared<SplitStep>(mm, 1, "x", std::vector<int64_t>{64}));
    s.add(std::make_shared<AnnotateStep>(mm, 1, "x_1", Annotation::Unroll));
    s.add(std::make_shared<AnnotateStep>(mm, 1, "k$x", Annotation::Unroll));
    return s;
}

// The most children alive (forked, not yet reaped) at any one time.
size_t most_alive(const std::vector<MeasureResult> &results) {
    size_t most = 0;
    for (const auto &a : results) {
        size_t alive = 0;
        const double t = a.compile.begin_s;
        for (const auto &b : results) {
            double end = b.run.end_s > 0 ? b.run.end_s : b.compile.end_s;
            alive += b.compile.begin_s <= t && t < end;
        }
        most = std::max(most, alive);
    }
    return most;
}

}  // namespace

TEST_CASE("builders: the compiled window is one child for one builder, a round or more for several") {
    CHECK(ForkMeasurer::compiled_window(1) == 1);
    CHECK(ForkMeasurer::compiled_window(2) == 16);
    CHECK(ForkMeasurer::compiled_window(64) == 64);
    auto p = ansor_test::make_matmul(16);
    PipelineDAG dag(p.functions(), 2);
    CHECK_THROWS_WITH_AS(ForkMeasurer(dag, options(0)), doctest::Contains("builders"), UserError);
}

TEST_CASE("builders: one and two builders give the same verdicts, in the candidates' order") {
    auto p = ansor_test::make_matmul(48);
    PipelineDAG dag(p.functions(), 2);
    std::vector<State> batch = {broken(dag), State(dag)};
    for (State &s : sampled(dag, 5, 4)) batch.push_back(s);
    batch.push_back(broken(dag));

    std::vector<MeasureResult> one = ForkMeasurer(dag, options(1)).measure(batch);
    std::vector<MeasureResult> two = ForkMeasurer(dag, options(2)).measure(batch);
    REQUIRE(one.size() == batch.size());
    REQUIRE(two.size() == batch.size());
    for (size_t i = 0; i < batch.size(); i++) {
        CAPTURE(i);
        CAPTURE(batch[i].source());
        CHECK(one[i].ok == two[i].ok);
        CHECK(one[i].error == two[i].error);
        CHECK(one[i].runs == two[i].runs);
        if (two[i].ok) CHECK(two[i].min_ms > 0);
    }
    // The failures sit where their candidates are.
    for (size_t i : {(size_t)0, batch.size() - 1}) {
        CHECK_FALSE(two[i].ok);
        CHECK(two[i].error.find("no_such_loop") != std::string::npos);
    }
    CHECK_MESSAGE(two[1].ok, two[1].error);
}

TEST_CASE("builders: a candidate that compiles too long is killed and recorded; the others succeed") {
    auto p = ansor_test::make_matmul(256);
    PipelineDAG dag(p.functions(), 2);
    MeasureOptions o = options(2);
    // A dozen times a plain matmul's compile (1-2 s), far short of the
    // unrolled one's (over 200 s); the reference gets ten times this.
    o.timeout_s = 20;
    ForkMeasurer measurer(dag, o);
    std::vector<State> batch = {State(dag), slow_to_compile(dag), State(dag)};
    std::vector<MeasureResult> r = measurer.measure(batch);
    REQUIRE(r.size() == 3);
    CHECK_MESSAGE(r[0].ok, r[0].error);
    CHECK_FALSE(r[1].ok);
    CHECK(r[1].error == "timed out compiling after 20 s");
    CHECK(r[1].compile.seconds() >= 20);
    CHECK(r[1].run.seconds() == 0);  // it never ran
    CHECK_MESSAGE(r[2].ok, r[2].error);
}

TEST_CASE("builders: with two builders compiles overlap, timed runs overlap nothing") {
    auto p = ansor_test::make_matmul(64);
    PipelineDAG dag(p.functions(), 2);
    std::vector<State> batch = {State(dag), State(dag)};  // two that surely run
    for (State &s : sampled(dag, 4, 7)) batch.push_back(s);
    std::vector<MeasureResult> r = ForkMeasurer(dag, options(2)).measure(batch);
    REQUIRE(r.size() == batch.size());
    bool compiles_overlapped = false;
    for (size_t i = 0; i < r.size(); i++) {
        CAPTURE(i);
        CHECK(r[i].compile.seconds() > 0);
        if (!r[i].ok) continue;
        // The child's own clock readings of its timed runs lie inside the
        // run phase the parent saw.
        CHECK(r[i].timed.seconds() > 0);
        CHECK(r[i].run.begin_s <= r[i].timed.begin_s);
        CHECK(r[i].timed.end_s <= r[i].run.end_s);
        CHECK(r[i].seconds == doctest::Approx(r[i].compile.seconds() + r[i].run.seconds()));
        for (size_t j = 0; j < r.size(); j++) {
            if (j == i) continue;
            CAPTURE(j);
            CHECK_FALSE(r[i].run.overlaps(r[j].compile));
            CHECK_FALSE(r[i].timed.overlaps(r[j].compile));
            CHECK_FALSE(r[i].run.overlaps(r[j].run));
            compiles_overlapped |= r[i].compile.overlaps(r[j].compile);
        }
    }
    CHECK(std::count_if(r.begin(), r.end(), [](const MeasureResult &m) { return m.ok; }) >= 2);
    CHECK(compiles_overlapped);
}

TEST_CASE("builders: one builder compiles and runs each candidate in turn") {
    auto p = ansor_test::make_matmul(32);
    PipelineDAG dag(p.functions(), 2);
    std::vector<State> batch = {State(dag), State(dag), broken(dag), State(dag)};
    std::vector<MeasureResult> r = ForkMeasurer(dag, options(1)).measure(batch);
    REQUIRE(r.size() == batch.size());
    CHECK(most_alive(r) == 1);
    for (size_t i = 0; i + 1 < r.size(); i++) {
        double end = r[i].run.end_s > 0 ? r[i].run.end_s : r[i].compile.end_s;
        CHECK(end <= r[i + 1].compile.begin_s);
    }
}

TEST_CASE("builders: a batch larger than the window runs in phases, never more children alive than the window") {
    auto p = ansor_test::make_matmul(16);
    PipelineDAG dag(p.functions(), 2);
    const size_t window = ForkMeasurer::compiled_window(2);
    std::vector<State> batch(window + 3, State(dag));
    std::vector<MeasureResult> r = ForkMeasurer(dag, options(2)).measure(batch);
    REQUIRE(r.size() == batch.size());
    for (const auto &m : r) CHECK_MESSAGE(m.ok, m.error);
    CHECK(most_alive(r) == window);
    // The first phase's last run ends before the second phase's first fork.
    CHECK(r[window - 1].run.end_s <= r[window].compile.begin_s);
}
