#include "measure/measure_child.h"
#include "measure/measurer.h"
#include "measure/pipeline_runner.h"
#include "model/random_cost_model.h"
#include "search/tuner.h"
#include "sketch/sketch_generator.h"
#include "test_pipelines.h"
#include "util/errors.h"
#include "util/target.h"

#include <doctest/doctest.h>

using namespace ansor;

namespace {
Halide::Target cpu() {
    return Halide::Target(ansor::project_cpu_target());
}

MeasureOptions options() {
    MeasureOptions o;
    o.target = cpu();
    o.threads = 2;
    o.repeats = 1;
    o.measure_seconds = 0;  // these tests check outputs, not times
    o.timeout_s = 180;  // a sampled unrolled body can compile for a minute on a busy machine
    return o;
}
}  // namespace

TEST_CASE("measure: every sampled program computes what the unscheduled pipeline computes") {
    std::vector<std::pair<std::string, ansor_test::Pipe>> pipes = {
        {"matmul", ansor_test::make_matmul(96)},      {"matmul_relu", ansor_test::make_matmul_relu(64)},
        {"norm", ansor_test::make_norm(128)},         {"chain", ansor_test::make_elementwise_chain()},
        {"blur", ansor_test::make_blur(200, 100)},         {"padded_conv", ansor_test::make_padded_conv()},
    };
    for (auto &[name, p] : pipes) {
        CAPTURE(name);
        PipelineDAG dag(p.functions(), 2);
        ForkMeasurer measurer(dag, options());
        AnnotationOptions ao;
        ao.parallelism = 2;
        RandomAnnotator annotator(dag, cpu(), ao);
        ProgramSampler sampler(generate_sketches({dag, cpu()}), annotator);
        RandomCostModel model(11);
        TunerOptions to;
        to.trials = 5;
        // Seed 11 draws a matmul that trips a Halide 14 bounds bug
        // (docs/known_issues/halide14_fuse_guardwithif_rfactor.cpp); the
        // search records such programs as failures.
        to.seed = 12;
        Tuner tuner(sampler, annotator, ao, measurer, model, with_policy(to, SearchPolicy::Random));
        TuningOutcome out = tuner.run();
        CHECK(out.trials.size() == 5);
        for (const auto &t : out.trials) {
            CAPTURE(t.state.source());
            CHECK_MESSAGE(t.result.ok, t.result.error);
            CHECK(t.result.min_ms > 0);
            CHECK(t.result.median_ms >= t.result.min_ms);
        }
    }
}

TEST_CASE("measure: a failed child's error is its own error line, not the warnings printed around it") {
    // Halide's warnings (an unscheduled update) fill the output; the error
    // that follows them, or their absence of one, must still be reported.
    std::string warnings;
    for (int i = 0; i < 20; i++) warnings += "Warning: Update definition 0 of function cdf has not been scheduled.\n";
    MeasureResult r = parse_child_output(warnings + "error: Input buffer a is accessed at 50\n", 0);
    CHECK_FALSE(r.ok);
    CHECK(r.error.find("error: Input buffer a is accessed at 50") != std::string::npos);
    r = parse_child_output("error: Lowering failed\n" + warnings, 0);
    CHECK(r.error.rfind("error: Lowering failed [...] ", 0) == 0);
    r = parse_child_output(warnings, 1 << 8);  // exit status 1, nothing but warnings
    CHECK(r.error.rfind("exited with status 1 without a result: ", 0) == 0);
    CHECK(r.error.find("Warning:") != std::string::npos);
}

TEST_CASE("measure: a broken candidate is a recorded failure, not a crash") {
    auto p = ansor_test::make_matmul(32);
    PipelineDAG dag(p.functions(), 2);
    ForkMeasurer measurer(dag, options());
    State broken(dag);
    // Names a loop the stage does not have: fails inside the child.
    broken.add(std::make_shared<AnnotateStep>(ansor_test::resolve(dag, "matmul"), 0, "no_such_loop", Annotation::Parallel));
    State fine(dag);
    auto results = measurer.measure({broken, fine});
    REQUIRE(results.size() == 2);
    CHECK_FALSE(results[0].ok);
    CHECK(results[0].error.find("no_such_loop") != std::string::npos);
    CHECK(results[1].ok);
}

TEST_CASE("measure: a run past the timeout is killed and recorded") {
    auto p = ansor_test::make_matmul(512);
    PipelineDAG dag(p.functions(), 2);
    MeasureOptions tight = options();
    tight.timeout_s = 0.05;  // far less than a JIT compile takes
    // The reference run itself is the first child; it cannot finish in 50 ms.
    CHECK_THROWS_WITH_AS(ForkMeasurer(dag, tight), doctest::Contains("timed out"), UserError);
}

TEST_CASE("measure: the error check catches wrong outputs") {
    Halide::Buffer<float> want(4), got(4);
    for (int i = 0; i < 4; i++) want(i) = got(i) = 1.0f + i;
    CHECK(max_relative_error(got, want.data()) == 0);
    got(2) = 3.0001f;
    CHECK(max_relative_error(got, want.data()) < 1e-3);
    got(2) = 4.0f;
    CHECK(max_relative_error(got, want.data()) > 0.3);
    Halide::Buffer<int> wi(3), gi(3);
    wi.fill(5);
    gi.fill(5);
    CHECK(max_relative_error(gi, wi.data()) == 0);
    gi(1) = 6;
    CHECK(std::isinf(max_relative_error(gi, wi.data())));
}

TEST_CASE("target: AVX512-FP16 is dropped only when the CPU lacks it") {
    Halide::Target t = cpu().with_feature(Halide::Target::AVX512_SapphireRapids).with_feature(Halide::Target::NoRuntime);
    Halide::Target m = measurement_target(t);
    CHECK_FALSE(m.has_feature(Halide::Target::NoRuntime));
    CHECK(m.has_feature(Halide::Target::AVX512_SapphireRapids) == cpu_has_avx512_fp16());
}

TEST_CASE("target: the instruction sets a CPU lacks are named, another architecture whole") {
    const Halide::Target avx2_cpu("x86-64-linux-avx-avx2-f16c-fma-sse41");
    const Halide::Target avx512(kAvx512Target);
    CHECK(cpu_features_missing(avx512, avx2_cpu) ==
          std::vector<std::string>{"avx512", "avx512_skylake", "avx512_cannonlake"});
    CHECK(cpu_features_missing(avx2_cpu, avx512).empty());
    CHECK(cpu_features_missing(Halide::Target("x86-64-linux-sse41"), avx2_cpu).empty());
    const std::vector<std::string> arm = cpu_features_missing(Halide::Target("arm-64-linux"), avx2_cpu);
    REQUIRE(arm.size() == 1);
    CHECK(arm[0].find("arm-64-linux") == 0);
    CHECK(arm[0].find("x86-64-linux") != std::string::npos);
    // The project's own target is chosen for this machine.
    CHECK(why_this_cpu_cannot_run(Halide::Target(project_cpu_target())) == "");
    const std::string phi = why_this_cpu_cannot_run(cpu().with_feature(Halide::Target::AVX512_KNL));
    CHECK(phi.find("avx512_knl") != std::string::npos);
}

TEST_CASE("measure: timed runs go on past the repeats until the time window is spent") {
    ansor_test::Pipe p = ansor_test::make_elementwise_chain();
    PipelineDAG dag(p.functions(), 2);
    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, cpu(), ao);
    ProgramSampler sampler(generate_sketches({dag, cpu()}), annotator);
    std::mt19937_64 rng(3);
    std::optional<State> program = sampler.sample(rng);
    REQUIRE(program);

    MeasureOptions o = options();
    o.repeats = 3;
    SUBCASE("no window: exactly the repeats") {
        o.measure_seconds = 0;
        MeasureResult r = ForkMeasurer(dag, o).measure({*program})[0];
        REQUIRE_MESSAGE(r.ok, r.error);
        CHECK(r.runs == 3);
    }
    SUBCASE("a window no fast program fills: max_repeats runs") {
        // A program of microseconds cannot spend 30 s in 40 runs, so its
        // three samples take 13 runs each, the most that fit in 40.
        o.measure_seconds = 60;
        o.max_repeats = 40;
        MeasureResult r = ForkMeasurer(dag, o).measure({*program})[0];
        REQUIRE_MESSAGE(r.ok, r.error);
        CHECK(r.runs == 3 * (40 / 3));
    }
}
