// Every app's expert schedule computes what the all-root reference computes,
// on the same random inputs, at sizes small enough to keep the test fast
// (and chosen so that tiles do not divide them, which exercises the tails).
#include "app_pipelines.h"
#include "app_test_sizes.h"
#include "dag/pipeline_dag.h"
#include "measure/output_check.h"
#include "measure/pipeline_runner.h"
#include "util/target.h"

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <string>

using namespace Halide;

namespace {

Target test_target() { return ansor::measurement_target(Target(ANSOR_TARGET)); }

std::vector<Internal::Function> output_functions(const Pipeline &p) {
    std::vector<Internal::Function> out;
    for (const Func &f : p.outputs()) out.push_back(f.function());
    return out;
}

// Runs the pipeline of `app` (all-root reference or expert) on the
// runner's reproducible random inputs; returns its outputs.
struct Run {
    ansor_apps::AppPipeline app;
    std::unique_ptr<ansor::PipelineDAG> dag;
    std::unique_ptr<ansor::PipelineRunner> runner;
};

std::unique_ptr<Run> run_app(const std::string &name, bool expert) {
    auto r = std::make_unique<Run>();
    r->app = ansor_apps::build_app_pipeline(name, expert, test_target(), small_sizes(name));
    r->dag = std::make_unique<ansor::PipelineDAG>(output_functions(r->app.pipeline), 2);
    if (expert) r->runner = std::make_unique<ansor::PipelineRunner>(*r->dag, r->app.pipeline, test_target());
    else r->runner = std::make_unique<ansor::PipelineRunner>(*r->dag, nullptr, test_target());
    r->runner->compile();
    r->runner->run();
    return r;
}

// Largest minus smallest element, as doubles: a reference that is constant
// would make the comparison meaningless.
double value_range(const Buffer<> &b) {
    double lo = INFINITY, hi = -INFINITY;
    Buffer<> copy = b.copy();
    Type t = copy.type();
    for (size_t i = 0; i < copy.number_of_elements(); i++) {
        double v;
        if (t == Float(32)) v = ((const float *)copy.data())[i];
        else if (t == UInt(16)) v = ((const uint16_t *)copy.data())[i];
        else if (t == UInt(8)) v = ((const uint8_t *)copy.data())[i];
        else throw std::invalid_argument("value_range: unexpected output type");
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    return hi - lo;
}

}  // namespace

TEST_CASE("every expert schedule matches the all-root reference") {
    for (const ansor_apps::AppInfo &info : ansor_apps::app_list()) {
        if (!info.has_expert_schedule) continue;
        CAPTURE(info.name);
        auto reference = run_app(info.name, false);
        auto expert = run_app(info.name, true);
        auto &want = reference->runner->outputs();
        auto &got = expert->runner->outputs();
        REQUIRE(want.size() == got.size());
        // The check every measured candidate passes (docs/correctness.md),
        // at the default tolerance.
        const std::vector<ansor::OutputRule> rules = ansor::output_rules(*reference->dag, 1e-3);
        REQUIRE(rules.size() == want.size());
        for (size_t i = 0; i < want.size(); i++) {
            CHECK(value_range(want[i]) > 0);
            REQUIRE(got[i].number_of_elements() == want[i].number_of_elements());
            ansor::OutputComparison c = ansor::compare_output(got[i], want[i].data(), rules[i]);
            CHECK_MESSAGE(c.ok(), c.detail);
        }
    }
}

TEST_CASE("app sizes in app_list() are the generators' defaults") {
    for (const ansor_apps::AppInfo &info : ansor_apps::app_list()) {
        CAPTURE(info.name);
        REQUIRE(!info.sizes.empty());
        std::map<std::string, std::string> explicit_sizes;
        for (const auto &s : info.sizes) explicit_sizes[s.first] = std::to_string(s.second);
        auto by_default = ansor_apps::build_app_pipeline(info.name, false, test_target());
        auto by_list = ansor_apps::build_app_pipeline(info.name, false, test_target(), explicit_sizes);
        ansor::PipelineDAG a(output_functions(by_default.pipeline), 2), b(output_functions(by_list.pipeline), 2);
        REQUIRE(a.inputs().size() == b.inputs().size());
        for (size_t i = 0; i < a.inputs().size(); i++) {
            CAPTURE(a.inputs()[i].name);
            REQUIRE(a.inputs()[i].region.size() == b.inputs()[i].region.size());
            for (size_t d = 0; d < a.inputs()[i].region.size(); d++) {
                CHECK(a.inputs()[i].region[d].min == b.inputs()[i].region[d].min);
                CHECK(a.inputs()[i].region[d].extent == b.inputs()[i].region[d].extent);
            }
        }
    }
}

TEST_CASE("bad app names and sizes are rejected by name") {
    CHECK_THROWS_WITH_AS(ansor_apps::build_app_pipeline("no_such_app", false, test_target()),
                         doctest::Contains("no_such_app"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(ansor_apps::build_app_pipeline("matmul", false, test_target(), {{"Q", "3"}}),
                         doctest::Contains("\"Q\""), std::invalid_argument);
}

// The inputs the runner bound to the pipeline's parameters.
Buffer<float> bound_input(const ansor::PipelineDAG &dag, const std::string &name) {
    for (const auto &in : dag.inputs()) {
        if (in.name == name) return Buffer<float>(in.param.buffer());
    }
    throw std::invalid_argument("no input named " + name);
}

// The expert schedules of matmul and the conv layer are checked against the
// root reference above; these pin down that the algorithm itself is the
// documented one, with naive loops at a few output points.
TEST_CASE("matmul computes C = A x B") {
    auto run = run_app("matmul", true);
    Buffer<float> a = bound_input(*run->dag, "a"), b = bound_input(*run->dag, "b");
    Buffer<float> c = run->runner->outputs()[0];
    const int K = a.dim(0).extent();
    for (int y : {0, 57, c.dim(1).extent() - 1}) {
        for (int x : {0, 33, c.dim(0).extent() - 1}) {
            double want = 0;
            for (int k = 0; k < K; k++) want += (double)a(k, y) * b(x, k);
            CHECK(c(x, y) == doctest::Approx(want).epsilon(1e-4));
        }
    }
}

TEST_CASE("conv_bias_relu computes max(bias + 3x3 zero-padded convolution, 0)") {
    auto run = run_app("conv_bias_relu", true);
    Buffer<float> in = bound_input(*run->dag, "input"), w = bound_input(*run->dag, "weight");
    Buffer<float> bias = bound_input(*run->dag, "bias");
    Buffer<float> out = run->runner->outputs()[0];
    const int CI = in.dim(0).extent(), W = in.dim(1).extent(), H = in.dim(2).extent();
    for (int n : {0, 1}) {
        for (int y : {0, 5, H - 1}) {
            for (int x : {0, 9, W - 1}) {
                for (int co : {0, 31, 47}) {
                    double sum = bias(co);
                    for (int ky = 0; ky < 3; ky++) {
                        for (int kx = 0; kx < 3; kx++) {
                            int ix = x + kx - 1, iy = y + ky - 1;
                            if (ix < 0 || iy < 0 || ix >= W || iy >= H) continue;
                            for (int ci = 0; ci < CI; ci++) sum += (double)in(ci, ix, iy, n) * w(co, ci, kx, ky);
                        }
                    }
                    CHECK(out(co, x, y, n) == doctest::Approx(std::max(sum, 0.0)).epsilon(1e-4));
                }
            }
        }
    }
}
