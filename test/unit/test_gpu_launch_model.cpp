// The GPU launch model (src/model/gpu_launch_model.h): the launch geometry it
// reads off GPU programs, the orderings it must give (many threads over one,
// more SMs never slower), and the session ranking GPU programs with it.
#include "model/gpu_launch_model.h"
#include "search/program_sampler.h"
#include "search/tuning_session.h"
#include "sketch/sketch_generator.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace ansor;
using namespace Halide;

namespace {

const Target cuda("x86-64-linux-avx-avx2-cuda-cuda_capability_80");

std::vector<State> sample(const PipelineDAG &dag, int count, uint64_t seed) {
    RandomAnnotator annotator(dag, cuda, AnnotationOptions{});
    ProgramSampler sampler(generate_sketches({dag, cuda}), annotator);
    std::mt19937_64 rng(seed);
    std::vector<State> out;
    for (int i = 0; i < count; i++) {
        if (auto p = sampler.sample(rng)) out.push_back(*p);
    }
    return out;
}

bool has_step(const State &s, const std::string &kind) {
    for (const StepPtr &step : s.steps()) {
        if (step->kind() == kind) return true;
    }
    return false;
}

}  // namespace

TEST_CASE("gpu launch model: blocks and threads are the bound loops' extents") {
    auto p = ansor_test::make_matmul(256);
    PipelineDAG dag(p.functions(), 1);
    GpuLaunchModel model(dag, *gpu_target_facts(cuda), 108);
    const std::vector<State> programs = sample(dag, 24, 3);
    REQUIRE(programs.size() == 24);
    for (const State &s : programs) {
        const LoopNest m = s.replay();
        const GpuLaunchEstimate e = model.estimate(s);
        CHECK(e.cycles > 0);
        CHECK(std::isfinite(model.predict({s})[0]));
        for (const GpuLaunchEstimate::Kernel &k : e.per_kernel) {
            const ModelStage &st = m.stage(k.func, k.stage);
            int64_t blocks = 1, threads = 1;
            for (const ModelLoop &l : st.loops) {
                if (l.annotation == Annotation::GpuBlock) blocks *= l.extent;
                if (l.annotation == Annotation::GpuThread) threads *= l.extent;
            }
            CHECK(k.blocks == blocks);
            CHECK(k.threads == threads);
            CHECK(k.waves >= 1);
            // A 256x256 output in blocks of at most 1024 threads: whatever
            // the tiling, the gemm kernel covers every output once.
            if (k.func == ansor_test::resolve(dag, "matmul") && k.stage == 1) CHECK(blocks * threads * k.register_tile >= 256 * 256);
        }
    }
}

TEST_CASE("gpu launch model: more SMs never make a program slower") {
    auto p = ansor_test::make_matmul(512);
    PipelineDAG dag(p.functions(), 1);
    GpuLaunchModel one(dag, *gpu_target_facts(cuda), 1), many(dag, *gpu_target_facts(cuda), 132);
    int faster = 0;
    for (const State &s : sample(dag, 16, 5)) {
        const double a = one.estimate(s).cycles, b = many.estimate(s).cycles;
        CHECK(b <= a);
        faster += b < a;
    }
    CHECK(faster > 0);
}

TEST_CASE("gpu launch model: a sum over a million values ranks the cross-thread reduction above one thread") {
    // The plain sketch leaves the update to gpu_single_thread; the
    // cross-thread sketch rfactors it over many threads.
    auto p = ansor_test::make_scalar_sum(1 << 20);
    PipelineDAG dag(p.functions(), 1);
    GpuLaunchModel model(dag, *gpu_target_facts(cuda), 108);
    const std::vector<State> programs = sample(dag, 32, 7);
    double best_single = -INFINITY, best_factored = -INFINITY;
    for (const State &s : programs) {
        // The intermediate's outer RVar runs inside its threads, not as
        // host loops relaunching the kernel (gpu_annotation.cpp).
        for (const GpuLaunchEstimate::Kernel &k : model.estimate(s).per_kernel) CHECK(k.launches == 1);
        double &best = has_step(s, "rfactor") ? best_factored : best_single;
        best = std::max(best, model.predict({s})[0]);
    }
    REQUIRE(std::isfinite(best_single));
    REQUIRE(std::isfinite(best_factored));
    // One thread doing 2^20 additions against thousands sharing them: the
    // estimate must differ by far more than a constant factor.
    CHECK(best_factored > best_single + std::log(20.0));
}

// out(x, y) = in(x, y) or in(y, x), 1024 x 1024.
ansor_test::Pipe make_copy(bool transposed) {
    ImageParam in(Float(32), 2, "in");
    in.dim(0).set_estimate(0, 1024).dim(1).set_estimate(0, 1024);
    Var x("x"), y("y");
    Func out("out");
    out(x, y) = transposed ? in(y, x) : in(x, y);
    out.set_estimate(x, 0, 1024).set_estimate(y, 0, 1024);
    return {{out}};
}

TEST_CASE("gpu launch model: a warp reading a row apart per thread costs more than one reading consecutively") {
    auto copy = make_copy(false), transpose = make_copy(true);
    PipelineDAG copy_dag(copy.functions(), 1), transpose_dag(transpose.functions(), 1);
    GpuLaunchModel copy_model(copy_dag, *gpu_target_facts(cuda), 132), transpose_model(transpose_dag, *gpu_target_facts(cuda), 132);
    double slowest_copy = 0, fastest_transpose = INFINITY;
    for (const State &s : sample(copy_dag, 8, 9)) slowest_copy = std::max(slowest_copy, copy_model.estimate(s).cycles);
    for (const State &s : sample(transpose_dag, 8, 9)) {
        fastest_transpose = std::min(fastest_transpose, transpose_model.estimate(s).cycles);
    }
    CHECK(fastest_transpose > slowest_copy);
}

TEST_CASE("tuning session: without a GPU, GPU programs are ranked by the launch model and say so") {
    auto p = ansor_test::make_matmul(64);
    PipelineDAG dag(p.functions(), 1);
    const Options options = Options::from_map({{"HL_ANSOR_TRIALS", "0"}, {"HL_ANSOR_PROGRESS", "0"}});
    TuningSession session(dag, cuda, session_settings(options, dag, cuda));
    SessionChoice choice = session.choose();
    CHECK(choice.how.zero_shot);
    CHECK(choice.how.ranked_by == "gpu-launch");
    CHECK(choice.source.find("zero-shot: the program the gpu-launch model ranks best") != std::string::npos);
    CHECK(choice.source.find(".gpu_threads(") != std::string::npos);
}
