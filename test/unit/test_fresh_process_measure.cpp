// FreshProcessMeasurer: CPU candidates built as shared objects and run by
// ansor_runner, a process of its own, on the reference's inputs.
#include "measure/fresh_process_measurer.h"
#include "measure/runner_files.h"
#include "measure/runner_program.h"
#include "measure/temp_dirs.h"
#include "model/random_cost_model.h"
#include "search/tuner.h"
#include "sketch/sketch_generator.h"
#include "measure_test_support.h"
#include "test_pipelines.h"
#include "util/errors.h"

#include <doctest/doctest.h>
#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <unistd.h>

using namespace ansor;

TEST_CASE("fresh-process measure: sampled programs run correctly in the runner and are timed there") {
    for (auto [name, p] : {std::pair{"blur", ansor_test::make_blur(200, 100)},
                           std::pair{"stencil_chain", ansor_test::make_stencil_chain()},
                           std::pair{"matmul_relu", ansor_test::make_matmul_relu(64)}}) {
        CAPTURE(name);
        PipelineDAG dag(p.functions(), 2);
        MeasureOptions o = ansor_test::correctness_options();
        o.repeats = 3;
        o.builders = 2;
        FreshProcessMeasurer measurer(dag, o);
        CHECK(measurer.reference().ok);
        AnnotationOptions ao;
        ao.parallelism = 2;
        RandomAnnotator annotator(dag, ansor_test::cpu_target(), ao);
        ProgramSampler sampler(generate_sketches({dag, ansor_test::cpu_target()}), annotator);
        RandomCostModel model(5);
        TunerOptions to;
        to.trials = 4;
        to.seed = 5;
        Tuner tuner(sampler, annotator, ao, measurer, model, with_policy(to, SearchPolicy::Random));
        const TuningOutcome out = tuner.run();
        REQUIRE(out.trials.size() == 4);
        for (const auto &t : out.trials) {
            CAPTURE(t.state.source());
            CHECK_MESSAGE(t.result.ok, t.result.error);
            CHECK(t.result.min_ms > 0);
            CHECK(t.result.runs >= 3);
            CHECK(t.result.device.empty());  // a CPU time
            CHECK(t.result.timed.seconds() > 0);
        }
    }
}

TEST_CASE("fresh-process measure: a wrong program and a broken one are recorded failures") {
    auto p = ansor_test::make_blur(64, 32);
    PipelineDAG dag(p.functions(), 2);
    FreshProcessMeasurer measurer(dag, ansor_test::correctness_options());

    // Same names and inputs, another definition: the blur's rows swapped for columns.
    Halide::ImageParam in(Halide::Float(32), 2, "in");
    in.dim(0).set_estimate(0, 66).dim(1).set_estimate(0, 34);
    Halide::Var x("x"), y("y");
    Halide::Func bx("blur_x"), by("blur_y");
    bx(x, y) = in(x, y) + in(x, y + 1) + in(x, y + 2);
    by(x, y) = bx(x, y) + bx(x + 1, y) + bx(x + 2, y) + 1.f;
    by.set_estimate(x, 0, 64).set_estimate(y, 0, 32);
    const std::vector<MeasureResult> wrong = measurer.measure_pipelines({Halide::Pipeline(by)});
    REQUIRE(wrong.size() == 1);
    CHECK_FALSE(wrong[0].ok);
    CHECK(wrong[0].error.find("wrong") != std::string::npos);

    State broken(dag);
    broken.add(std::make_shared<AnnotateStep>(ansor_test::resolve(dag, "blur_y"), 0, "no_such_loop", Annotation::Parallel));
    State fine(dag);
    const std::vector<MeasureResult> results = measurer.measure({broken, fine});
    REQUIRE(results.size() == 2);
    CHECK_FALSE(results[0].ok);
    CHECK(results[0].error.find("no_such_loop") != std::string::npos);
    CHECK_MESSAGE(results[1].ok, results[1].error);
}

TEST_CASE("fresh-process measure: what killed children left is removed after their batch, the reference kept") {
    const std::string dir = make_temp_dir("ansor-test");
    std::filesystem::create_directories(dir + "/candidate-123");
    std::filesystem::create_directories(dir + "/reference");
    write_raw_file(dir + "/candidate-123/candidate.so", "x", 1);
    write_raw_file(dir + "/reference/inputs.json", "{}", 2);
    remove_candidate_dirs(dir);
    CHECK_FALSE(std::filesystem::exists(dir + "/candidate-123"));
    CHECK(std::filesystem::exists(dir + "/reference/inputs.json"));
    remove_temp_dir(dir);
}

TEST_CASE("fresh-process measure: a GPU target is refused, naming it") {
    auto p = ansor_test::make_blur(64, 32);
    PipelineDAG dag(p.functions(), 2);
    MeasureOptions o = ansor_test::correctness_options();
    o.target = Halide::Target("x86-64-linux-avx-avx2-f16c-fma-sse41-cuda");
    CHECK_THROWS_WITH_AS(FreshProcessMeasurer(dag, o), doctest::Contains("cuda"), UserError);
}

TEST_CASE("fresh-process measure: an extern stage keeps a pipeline's candidates in the tuner, and says why") {
    Halide::ImageParam in(Halide::Float(32), 1, "in");
    in.dim(0).set_estimate(0, 200);
    Halide::Var x("x");
    Halide::Func pre("pre"), ext("doubled"), out("after");
    pre(x) = in(x) + 1.f;
    ext.define_extern("ansor_symbol_of_the_tuner", {pre}, Halide::Float(32), 1);
    out(x) = ext(x) * 0.5f + pre(x);
    out.set_estimate(x, 0, 200);
    PipelineDAG with_extern({out.function()}, 2);
    // The stage's name as Halide made it unique in this process ("doubled" or "doubled$1").
    const std::string obstacle = fresh_process_obstacle(with_extern);
    CHECK(obstacle.rfind("extern stage 'doubled", 0) == 0);
    CHECK(obstacle.find("' calls ansor_symbol_of_the_tuner, which a process of its own cannot load") !=
          std::string::npos);
    CHECK_THROWS_WITH_AS(FreshProcessMeasurer(with_extern, ansor_test::correctness_options()),
                         doctest::Contains("ansor_symbol_of_the_tuner"), UserError);
    auto p = ansor_test::make_blur(64, 32);
    CHECK(fresh_process_obstacle(PipelineDAG(p.functions(), 2)).empty());
}

namespace {

constexpr const char *kRunnerHeapTest = "fresh-process measure: reading an input file leaves a fresh process's heap as it was";
constexpr const char *kRunnerHeapEnv = "ANSOR_TEST_RUNNER_HEAP";

}  // namespace

// In a fresh copy of this test binary, as the runner is a fresh process: if
// reading a 16 MiB input went through a temporary copy, freeing it would
// raise glibc's mmap threshold past 16 MiB, and the pipeline's own 16 MiB
// buffers would come from the heap, without the page faults RunGen's pay.
TEST_CASE(kRunnerHeapTest) {
    if (!ansor_test::in_fresh_copy_of_this_test(kRunnerHeapTest, kRunnerHeapEnv)) return;
    // Nothing over 128 KiB is freed before the last check: freeing a mapped
    // block is what raises the threshold.
    const size_t bytes = 16 << 20;
    const std::string path = std::filesystem::temp_directory_path() / ("ansor-input-" + std::to_string(getpid()));
    {
        static char chunk[64 << 10];
        std::memset(chunk, 3, sizeof chunk);
        FILE *f = std::fopen(path.c_str(), "wb");
        REQUIRE(f);
        for (size_t written = 0; written < bytes; written += sizeof chunk) std::fwrite(chunk, 1, sizeof chunk, f);
        std::fclose(f);
    }
    auto mapped = [](size_t n) {
        const size_t before = mallinfo2().hblkhd;  // bytes in blocks mapped for one allocation
        void *block = std::malloc(n);
        REQUIRE(block);
        CHECK(mallinfo2().hblkhd > before);
        return block;
    };
    void *input = mapped(bytes);  // held, as the runner holds its inputs: a fresh process maps it
    read_raw_file_into(path, input, bytes);
    CHECK(((const char *)input)[bytes - 1] == 3);
    CHECK_THROWS_WITH_AS(read_raw_file_into(path, input, bytes - 1), doctest::Contains("bytes where"),
                         std::runtime_error);
    std::filesystem::remove(path);
    void *output = mapped(bytes);  // the pipeline's own buffer of that size is still mapped
    std::free(output);
    std::free(input);
}

namespace {

// The last row of a running sum down each column: the row read depends on
// the input's own height, so a bounds query that does not pass the input's
// shape would see height 0 and report a read of row -1.
Halide::Func last_row_of_column_sums() {
    Halide::ImageParam in(Halide::Float(32), 2, "colsum_in");
    in.dim(0).set_estimate(0, 96).dim(1).set_estimate(0, 40);
    Halide::Var x("x"), y("y");
    Halide::RDom ry(1, in.height() - 1, "ry");
    Halide::Func sums("colsum");
    sums(x, y) = in(x, y);
    sums(x, ry) = sums(x, ry - 1) + in(x, ry);
    Halide::Func out("colsum_last");
    out(x) = sums(x, in.height() - 1);
    out.set_estimate(x, 0, 96);
    return out;
}

}  // namespace

TEST_CASE("fresh-process measure: a program whose reads depend on an input's extent is not taken for an over-read") {
    Halide::Func reference = last_row_of_column_sums();
    PipelineDAG dag({reference.function()}, 2);
    FreshProcessMeasurer measurer(dag, ansor_test::correctness_options());
    Halide::Func scheduled = last_row_of_column_sums();
    Halide::Pipeline p(scheduled);
    p.get_func(1).compute_root();  // the sums, whose rows span the input's height
    const std::vector<MeasureResult> r = measurer.measure_pipelines({p});
    REQUIRE(r.size() == 1);
    CHECK_MESSAGE(r[0].ok, r[0].error);
}
