// The compile check a zero-shot build runs before it applies a program, and
// the space's refusal to unroll a loop whose extent is a runtime Param (a
// reduction over a patch size given at run time).
#include "measure/compile_check.h"
#include "search/program_sampler.h"
#include "state/directive.h"
#include "sketch/sketch_generator.h"
#include "measure_test_support.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>

using namespace ansor;
using namespace Halide;

namespace {

// A box filter over a window whose size is a Param with an estimate, as
// Halide's nl_means takes its patch size: the reduction's extent is known
// to the search only through the estimate and is no constant in the code.
ansor_test::Pipe make_param_window() {
    ImageParam in(Float(32), 2, "pw_in");
    Param<int> window("pw_window");
    window.set_estimate(7);
    Var x("x"), y("y");
    RDom r(0, window, 0, window, "pw_r");
    Func sum_window("pw_sum"), out("pw_out");
    sum_window(x, y) += in(x + r.x, y + r.y);
    out(x, y) = sum_window(x, y) / cast<float>(window * window);
    out.set_estimate(x, 0, 256).set_estimate(y, 0, 256);
    in.set_estimates({{0, 270}, {0, 270}});
    return {{out}};
}

// Random programs of a pipeline for the CPU target, as the search draws them.
struct Sampling {
    explicit Sampling(const PipelineDAG &dag)
        : annotator(dag, ansor_test::cpu_target(), options()),
          sampler(generate_sketches({dag, ansor_test::cpu_target()}), annotator) {}
    static AnnotationOptions options() {
        AnnotationOptions ao;
        ao.parallelism = 2;
        return ao;
    }
    RandomAnnotator annotator;
    ProgramSampler sampler;
};

}  // namespace

TEST_CASE("compile check: a program that compiles passes; one past the time limit is stopped and says so") {
    ansor_test::Pipe p = ansor_test::make_blur(200, 100);
    PipelineDAG dag(p.functions(), 2);
    Sampling sampling(dag);
    std::mt19937_64 rng(1);
    std::optional<State> s = sampling.sampler.sample(rng);
    REQUIRE(s);
    const CompileCheck ok = check_compiles(dag, *s, ansor_test::cpu_target(), 60, 0);
    CHECK_MESSAGE(ok.ok, ok.error);
    CHECK(ok.seconds > 0);
    // The child killed at the limit leaves no scratch files behind.
    char scratch[] = "/tmp/ansor-compile-check-test-XXXXXX";
    REQUIRE(mkdtemp(scratch));
    const char *old_tmpdir = std::getenv("TMPDIR");
    const std::string saved = old_tmpdir ? old_tmpdir : "";
    setenv("TMPDIR", scratch, 1);
    const CompileCheck late = check_compiles(dag, *s, ansor_test::cpu_target(), 0.001, 0);
    if (old_tmpdir) setenv("TMPDIR", saved.c_str(), 1); else unsetenv("TMPDIR");
    CHECK_FALSE(late.ok);
    CHECK(late.error.find("did not compile in") != std::string::npos);
    CHECK(std::filesystem::is_empty(scratch));
    std::filesystem::remove_all(scratch);
}

TEST_CASE("compile check: runs started together each give their own verdict; one dropped unread leaves nothing") {
    ansor_test::Pipe p = ansor_test::make_blur(200, 100);
    PipelineDAG dag(p.functions(), 2);
    Sampling sampling(dag);
    std::mt19937_64 rng(2);
    std::optional<State> a = sampling.sampler.sample(rng), b = sampling.sampler.sample(rng);
    REQUIRE(a);
    REQUIRE(b);
    char scratch[] = "/tmp/ansor-compile-check-test-XXXXXX";
    REQUIRE(mkdtemp(scratch));
    const char *old_tmpdir = std::getenv("TMPDIR");
    const std::string saved = old_tmpdir ? old_tmpdir : "";
    setenv("TMPDIR", scratch, 1);
    {
        CompileCheckRun first(dag, *a, ansor_test::cpu_target(), 60, 0);
        CompileCheckRun second(dag, *b, ansor_test::cpu_target(), 60, 0);
        auto late = std::make_unique<CompileCheckRun>(dag, *b, ansor_test::cpu_target(), 60, 0);
        const CompileCheck one = first.wait(), two = second.wait();
        CHECK_MESSAGE(one.ok, one.error);
        CHECK_MESSAGE(two.ok, two.error);
        CHECK(second.wait().error == "the compile check was already collected");
        late.reset();  // stopped while it may still compile
    }
    if (old_tmpdir) setenv("TMPDIR", saved.c_str(), 1); else unsetenv("TMPDIR");
    CHECK(std::filesystem::is_empty(scratch));
    std::filesystem::remove_all(scratch);
}

TEST_CASE("no program unrolls or vectorizes a reduction whose extent is a runtime Param, and each compiles") {
    ansor_test::Pipe p = make_param_window();
    PipelineDAG dag(p.functions(), 2);
    Sampling sampling(dag);
    ProgramSampler &sampler = sampling.sampler;
    std::mt19937_64 rng(3);
    int sampled = 0, compiled = 0;
    for (int i = 0; i < 300; i++) {
        std::optional<State> s = sampler.sample(rng);
        if (!s) continue;
        sampled++;
        CAPTURE(s->source());
        // The RVars themselves: pieces split off them have constant extents.
        for (const Directive &d : s->lower()) {
            if (d.kind != Directive::Kind::Unroll && d.kind != Directive::Kind::Vectorize) continue;
            CHECK(d.loops[0].name != "pw_r$x");
            CHECK(d.loops[0].name != "pw_r$y");
        }
        // Halide itself is the judge: the first programs compile.
        if (compiled < 6) {
            const CompileCheck c = check_compiles(dag, *s, ansor_test::cpu_target(), 120, 0);
            CHECK_MESSAGE(c.ok, c.error);
            compiled++;
        }
    }
    CHECK(sampled > 100);
}
