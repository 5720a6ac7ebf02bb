// Every app scheduled zero-shot (HL_ANSOR_TRIALS=0, no log: the program the
// shipped cost model ranks best after evolution, nothing measured while
// choosing) is legal and computes what the all-root reference computes.
#include "app_pipelines.h"
#include "app_test_sizes.h"
#include "search/tuning_session.h"
#include "util/target.h"

#include <doctest/doctest.h>

#include <chrono>

TEST_CASE("zero-shot: every app's zero-shot program is correct") {
    const Halide::Target target(ANSOR_TARGET);
    const ansor::Options options = ansor::Options::from_map(
        {{"HL_ANSOR_TRIALS", "0"}, {"HL_ANSOR_MODEL", ANSOR_SHIPPED_MODEL_FILE}, {"HL_ANSOR_PROGRESS", "0"},
         // Compiling local_laplacian's program can take tens of seconds on a busy 2-core machine.
         {"HL_ANSOR_TIMEOUT", "180"}});
    for (const ansor_apps::AppInfo &info : ansor_apps::app_list()) {
        // One subcase per app: -sc=NAME runs one.
        SUBCASE(info.name.c_str()) {
        ansor_apps::AppPipeline app = ansor_apps::build_app_pipeline(info.name, false, target, small_sizes(info.name));
        std::vector<Halide::Internal::Function> outputs;
        for (const Halide::Func &f : app.pipeline.outputs()) outputs.push_back(f.function());
        ansor::PipelineDAG dag(outputs, 2);
        ansor::TuningSession session(dag, target, options);
        auto start = std::chrono::steady_clock::now();
        ansor::SessionChoice choice = session.choose();
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        MESSAGE(info.name << ": zero-shot choice in " << seconds << " s");
        CHECK(choice.how.zero_shot);
        // Compiled, run and checked against the reference in a child process.
        ansor::MeasureResult r = session.measure({choice.state})[0];
        CHECK_MESSAGE(r.ok, r.error);
        }
    }
}
