// A program that leaves the threads idle on its bulk of work
// (src/search/idle_threads.{h,cpp}): the zero-shot choice tries such
// finalists last.
#include "search/idle_threads.h"
#include "state/state.h"
#include "state/steps.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

using namespace ansor;

TEST_CASE("idle threads: a parallel loop of fewer iterations than threads over the bulk of the work") {
    auto p = ansor_test::make_matmul(256);
    PipelineDAG dag(p.functions(), 2);
    const std::string mm = ansor_test::resolve(dag, "matmul");

    // Nothing parallel: 256^3 iterations on one thread.
    State serial(dag);
    CHECK_FALSE(idle_threads(serial.replay(), 2).empty());
    // One thread is all there is.
    CHECK(idle_threads(serial.replay(), 1).empty());

    // The update's y in pieces of 256 (one outer iteration), the outer piece
    // parallel: still one iteration for two threads.
    State one_task(dag);
    one_task.add(std::make_shared<SplitStep>(mm, 1, "y", std::vector<int64_t>{256}));
    one_task.add(std::make_shared<AnnotateStep>(mm, 1, "y_0", Annotation::Parallel));
    one_task.add(std::make_shared<AnnotateStep>(mm, 0, "y", Annotation::Parallel));
    const std::string why = idle_threads(one_task.replay(), 2);
    CHECK(why.find("update(0)") != std::string::npos);
    CHECK(why.find("1 parallel iteration(s) for 2 threads") != std::string::npos);

    // In pieces of 32: 8 outer iterations keep both threads busy.
    State eight_tasks(dag);
    eight_tasks.add(std::make_shared<SplitStep>(mm, 1, "y", std::vector<int64_t>{32}));
    eight_tasks.add(std::make_shared<AnnotateStep>(mm, 1, "y_0", Annotation::Parallel));
    eight_tasks.add(std::make_shared<AnnotateStep>(mm, 0, "y", Annotation::Parallel));
    CHECK(idle_threads(eight_tasks.replay(), 2).empty());
    // But not 16 threads.
    CHECK_FALSE(idle_threads(eight_tasks.replay(), 16).empty());
}

TEST_CASE("idle threads: too little work for threads to matter") {
    auto p = ansor_test::make_matmul(16);  // 4,096 iterations
    PipelineDAG dag(p.functions(), 2);
    State serial(dag);
    CHECK(idle_threads(serial.replay(), 2).empty());
}
