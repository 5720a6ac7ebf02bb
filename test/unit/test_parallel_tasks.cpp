// Parallel tasks big enough to pay for their dispatch
// (src/annotate/parallel_tasks.{h,cpp}): the factors that coarsen a parallel
// loop of tiny tasks, and the annotator drawing them for a Func at root that
// no rule tiled, with programs that compute the reference's output.
#include "annotate/parallel_tasks.h"
#include "annotate/random_annotator.h"
#include "measure_test_support.h"
#include "search/program_sampler.h"
#include "sketch/sketch_generator.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

using namespace ansor;
using namespace Halide;

TEST_CASE("parallel tasks: factors keep the threads balanced and make tasks of enough points") {
    // Non-local means' sums initialised: 3 channels x 512 rows of 768 points
    // on 2 threads. 32 rows reach 16,384 points per task (48 tasks); 64 rows
    // still leave 24 tasks; 128 rows would leave 12, fewer than 8 per thread.
    CHECK(coarse_task_factors(3, 512, 768, 2) == std::vector<int64_t>{32, 64});
    // Rows of 16,384 points or more are tasks enough already.
    CHECK(coarse_task_factors(3, 512, 16384, 2).empty());
    // 16 rows in all: no more than 8 per thread to coarsen.
    CHECK(coarse_task_factors(1, 16, 64, 2).empty());
    // Tiny rows but few of them: the coarsest split the threads allow.
    CHECK(coarse_task_factors(1, 64, 8, 2) == std::vector<int64_t>{4});
    // A tail: 100 rows by 4 leave 25 tasks (the last one short).
    CHECK(coarse_task_factors(1, 100, 10, 2) == std::vector<int64_t>{4});
    // Every factor keeps at least 8 tasks per thread.
    for (int64_t f : coarse_task_factors(2, 3000, 100, 4)) CHECK(2 * ((3000 + f - 1) / f) >= 32);
}

namespace {

// out(x, y, c) = in(x, y, c) * 2 + 1 over a w x h x 3 image, with a
// reduction consumer so `out` is not the only Func: sums(x, y, c) = 0, then
// += out(x + r, y, c) over r in [0, 3), the output.
ansor_test::Pipe make_row_sums(int w, int h) {
    ImageParam in(Float(32), 3, "in");
    in.dim(0).set_estimate(0, w + 2).dim(1).set_estimate(0, h).dim(2).set_estimate(0, 3);
    Var x("x"), y("y"), c("c");
    RDom r(0, 3);
    Func sums("sums");
    sums(x, y, c) = 0.f;
    sums(x, y, c) += in(x + r, y, c) * 2.f + 1.f;
    sums.set_estimate(x, 0, w).set_estimate(y, 0, h).set_estimate(c, 0, 3);
    return {{sums}};
}

// The parallel loop of `func`'s pure stage and whether a split made it.
struct ParallelLoop {
    bool found = false;
    bool split_first = false;
};

ParallelLoop pure_stage_parallel(const State &s, const std::string &func) {
    ParallelLoop out;
    const FuncSteps *g = s.group(func);
    if (!g) return out;
    std::string rows_outer;  // the outer piece of a split of the rows (y)
    for (const StepPtr &step : g->steps) {
        if (auto sp = step->as<SplitStep>(); sp && sp->stage == 0 && sp->loop == "y") rows_outer = sp->piece_names()[0];
        if (auto a = step->as<AnnotateStep>(); a && a->stage == 0 && a->annotation == Annotation::Parallel) {
            out.found = true;
            out.split_first = !rows_outer.empty() && a->loop.find(rows_outer) != std::string::npos;
        }
    }
    return out;
}

}  // namespace

TEST_CASE("parallel tasks: the annotator coarsens the rows of a Func at root, and the programs are correct") {
    auto p = make_row_sums(768, 512);
    PipelineDAG dag(p.functions(), 2);
    const std::string sums = ansor_test::resolve(dag, "sums");
    const auto sketches = generate_sketches({dag, ansor_test::cpu_target()});
    REQUIRE(!sketches.empty());
    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, ansor_test::cpu_target(), ao);
    ProgramSampler sampler(sketches, annotator);
    std::mt19937_64 rng(11);
    int parallel = 0, coarse = 0;
    std::vector<State> programs;
    for (int i = 0; i < 200; i++) {
        auto program = sampler.sample(rng);
        REQUIRE(program.has_value());
        const ParallelLoop pl = pure_stage_parallel(*program, sums);
        parallel += pl.found;
        coarse += pl.split_first;
        if (pl.split_first && programs.size() < 3) programs.push_back(*program);
        if (!pl.split_first && pl.found && programs.size() >= 3 && programs.size() < 5) programs.push_back(*program);
    }
    // 3 x 512 rows of 768 points: tiny tasks, coarsened in about
    // kCoarseTaskShare of the programs whose rows are fused and parallel.
    REQUIRE(parallel > 100);
    CHECK(coarse > parallel / 2);
    CHECK(coarse < parallel);
    REQUIRE(programs.size() >= 4);
    ansor_test::expect_all_correct(dag, programs);
}
