// The loop-nest model's operations (state/loop_nest.h), called directly.
#include "state/loop_nest.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

using namespace ansor;

namespace {

std::vector<std::string> loop_names(const LoopNest &m, const std::string &func, int stage) {
    std::vector<std::string> out;
    for (const auto &l : m.stage(func, stage).loops) out.push_back(l.name);
    return out;
}

std::vector<int64_t> extents(const LoopNest &m, const std::string &func, int stage) {
    std::vector<int64_t> out;
    for (const auto &l : m.stage(func, stage).loops) out.push_back(l.extent);
    return out;
}

}  // namespace

TEST_CASE("loop nest: split then fuse gives the named loops and their extents") {
    auto p = ansor_test::make_matmul(64);
    PipelineDAG dag(p.functions(), 2);
    const std::string mm = ansor_test::resolve(dag, "matmul");
    LoopNest m(dag);
    REQUIRE(loop_names(m, mm, 0) == std::vector<std::string>{"y", "x"});

    m.split(mm, 0, "x", {4, 8}, {"xo", "xm", "xi"});
    CHECK(loop_names(m, mm, 0) == std::vector<std::string>{"y", "xo", "xm", "xi"});
    CHECK(extents(m, mm, 0) == std::vector<int64_t>{64, 2, 4, 8});
    CHECK_FALSE(m.loop(mm, 0, "xo").constant_extent);
    CHECK(m.loop(mm, 0, "xi").constant_extent);

    m.fuse(mm, 0, {"y", "xo"}, "yx");
    CHECK(loop_names(m, mm, 0) == std::vector<std::string>{"yx", "xm", "xi"});
    CHECK(extents(m, mm, 0) == std::vector<int64_t>{128, 4, 8});
    const auto &origins = m.loop(mm, 0, "yx").origins;
    REQUIRE(origins.size() == 2);
    CHECK(origins[0] == std::make_pair(std::string("y"), int64_t(64)));
    CHECK(origins[1] == std::make_pair(std::string("x"), int64_t(2)));

    m.reorder(mm, 0, {"xm", "yx", "xi"});
    CHECK(loop_names(m, mm, 0) == std::vector<std::string>{"xm", "yx", "xi"});
    m.annotate(mm, 0, "xi", Annotation::Vectorize);
    CHECK(m.loop(mm, 0, "xi").annotation == Annotation::Vectorize);
    m.set_auto_unroll(mm, 0, 16);
    CHECK(m.stage(mm, 0).auto_unroll_max_step == 16);

    // An operation that does not fit throws and leaves the model as it was.
    CHECK_THROWS_AS(m.split(mm, 0, "x", {2}, {"a", "b"}), InvalidState);
    CHECK_THROWS_AS(m.fuse(mm, 0, {"xm", "xi"}, "f"), InvalidState);  // not adjacent
    CHECK_THROWS_AS(m.reorder(mm, 0, {"xm", "xi"}), InvalidState);     // not every loop
    CHECK_THROWS_AS(m.annotate(mm, 0, "x", Annotation::Parallel), InvalidState);
    CHECK(loop_names(m, mm, 0) == std::vector<std::string>{"xm", "yx", "xi"});
}

TEST_CASE("loop nest: adding an intermediate records where it came from and moves the reduction into it") {
    auto p = ansor_test::make_matmul(64);
    PipelineDAG dag(p.functions(), 2);
    const std::string mm = ansor_test::resolve(dag, "matmul");
    LoopNest m(dag);
    const size_t funcs_before = m.funcs().size();
    const std::string rvar = m.stage(mm, 1).loops[0].kind == LoopKind::Reduction ? m.stage(mm, 1).loops[0].name
                                                                                 : m.stage(mm, 1).loops.back().name;
    REQUIRE(m.loop(mm, 1, rvar).kind == LoopKind::Reduction);

    CHECK_THROWS_AS(m.add_intermediate(mm, 0, {}), InvalidState);  // not an update
    const ModelFunc &intm = m.add_intermediate(mm, 1, {});
    CHECK(intm.name == intermediate_name(mm));
    CHECK(intm.created_from == mm);
    CHECK(intm.dag_index == -1);
    CHECK(intm.location.kind == LocationKind::Inline);
    REQUIRE(m.funcs().size() == funcs_before + 1);
    // Right after its origin, and found by asking for the origin's intermediate.
    for (size_t i = 0; i + 1 < m.funcs().size(); i++) {
        if (m.funcs()[i].name == mm) CHECK(m.funcs()[i + 1].name == intermediate_name(mm));
    }
    CHECK(m.intermediate_of(mm) == &m.func(intermediate_name(mm)));

    // The reduction moved: the origin's update loops over pure Vars only.
    for (const auto &l : m.stage(mm, 1).loops) CHECK(l.kind == LoopKind::Space);
    CHECK(m.stage(mm, 1).loops.size() == 2);
    CHECK(m.loop(intermediate_name(mm), 1, rvar).kind == LoopKind::Reduction);
    CHECK_THROWS_AS(m.add_intermediate(mm, 1, {}), InvalidState);  // already factored
}

TEST_CASE("loop nest: a preserved RVar becomes a pure Var of the intermediate and stays in the origin") {
    auto p = ansor_test::make_norm(256);
    PipelineDAG dag(p.functions(), 2);
    const std::string sq = ansor_test::resolve(dag, "sumsq");
    LoopNest m(dag);
    std::string rvar;
    for (const auto &l : m.stage(sq, 1).loops) {
        if (l.kind == LoopKind::Reduction) rvar = l.name;
    }
    REQUIRE(!rvar.empty());
    CHECK_THROWS_AS(m.add_intermediate(sq, 1, {{"b", "v"}}), InvalidState);  // not an RVar
    const ModelFunc &intm = m.add_intermediate(sq, 1, {{rvar, rvar + "_v"}});
    CHECK(intm.created_from == sq);
    CHECK(intm.pure_args.back() == rvar + "_v");
    CHECK(m.loop(sq, 1, rvar).kind == LoopKind::Reduction);
    CHECK(m.loop(intermediate_name(sq), 1, rvar + "_v").kind == LoopKind::Space);
}
