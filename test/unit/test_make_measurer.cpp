// make_measurer's choice of measurer for each target and timing mode. Only
// the choice is checked here: making a built-in measurer runs the reference
// (test_measure.cpp, test_fresh_process_measure.cpp, test_gpu_measure.cpp).
#include "measure/make_measurer.h"
#include "measure_test_support.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

#include <string>

using namespace ansor;

namespace {

MeasureOptions cpu_options(bool fresh_process) {
    MeasureOptions o = ansor_test::correctness_options();
    o.fresh_process = fresh_process;
    return o;
}

// Answers every state with the same failure, and counts the calls.
class CannedMeasurer : public Measurer {
public:
    std::vector<MeasureResult> measure(const std::vector<State> &states) override {
        MeasureResult r;
        r.error = "canned";
        return std::vector<MeasureResult>(states.size(), r);
    }
};

}  // namespace

TEST_CASE("make_measurer: CPU candidates are timed in a fresh process unless asked otherwise") {
    auto p = ansor_test::make_matmul(16);
    PipelineDAG dag(p.functions(), 2);
    CHECK(measurer_kind(dag, cpu_options(true)) == MeasurerKind::FreshProcess);
    CHECK(measurer_kind(dag, cpu_options(false)) == MeasurerKind::Fork);
    CHECK(std::string(measurer_kind_name(MeasurerKind::FreshProcess)) == "fresh-process");
}

TEST_CASE("make_measurer: an extern stage keeps the candidates in the tuner's forked child") {
    PipelineDAG dag(ansor_test::extern_stage_pipe("ansor_make_measurer_extern", "ext").functions(), 2);
    CHECK(measurer_kind(dag, cpu_options(true)) == MeasurerKind::Fork);
    CHECK(measurer_kind(dag, cpu_options(false)) == MeasurerKind::Fork);
}

TEST_CASE("make_measurer: GPU targets go to the GPU measurer whatever the timing mode") {
    auto p = ansor_test::make_matmul(16);
    PipelineDAG dag(p.functions(), 2);
    for (const char *api : {"cuda-cuda_capability_80", "opencl"}) {
        CAPTURE(api);
        for (bool fresh : {true, false}) {
            MeasureOptions o = cpu_options(fresh);
            o.target = Halide::Target(std::string("x86-64-linux-avx-avx2-f16c-fma-sse41-") + api);
            CHECK(measurer_kind(dag, o) == MeasurerKind::Gpu);
        }
    }
}

TEST_CASE("make_measurer: a CPU target this machine cannot run has no measurer, and says why") {
    auto p = ansor_test::make_matmul(16);
    PipelineDAG dag(p.functions(), 2);
    MeasureOptions o = cpu_options(true);
    const bool host_is_arm = Halide::get_host_target().arch == Halide::Target::ARM;
    o.target = Halide::Target(host_is_arm ? "x86-64-linux-sse41" : "arm-64-linux");
    CHECK_THROWS_WITH_AS(measurer_kind(dag, o), doctest::Contains("cannot run here"), MeasurementUnavailable);
    CHECK_THROWS_AS(make_measurer(dag, o, {}), MeasurementUnavailable);
}

TEST_CASE("make_measurer: a tool's own measurer comes as it is, with no reference run") {
    auto p = ansor_test::make_matmul(16);
    PipelineDAG dag(p.functions(), 2);
    MeasurerSources sources;
    int made = 0;
    sources.supplied = [&made](const PipelineDAG &, const MeasureOptions &) {
        made++;
        return std::make_unique<CannedMeasurer>();
    };
    // Even where no built-in measurer could run.
    MeasureOptions o = cpu_options(true);
    o.target = Halide::Target("arm-64-linux");
    MadeMeasurer m = make_measurer(dag, o, sources);
    CHECK(made == 1);
    REQUIRE(m.measurer);
    CHECK(dynamic_cast<CannedMeasurer *>(m.measurer.get()) != nullptr);
    CHECK_FALSE(m.reference_ms.has_value());
}
