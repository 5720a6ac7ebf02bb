// The replay memo (state/replay_memo.h): a loop nest remembered, or built
// from a remembered prefix of the steps, is the one a fresh replay builds,
// and a program replay refuses is refused again.
#include "sketch/sketch_generator.h"
#include "state/replay_memo.h"
#include "state/steps.h"
#include "measure_test_support.h"
#include "sketch_test_support.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

#include <sstream>

using namespace ansor;

namespace {

// Everything a loop nest holds, as text.
std::string digest(const LoopNest &m) {
    std::ostringstream o;
    for (const ModelFunc &f : m.funcs()) {
        o << f.name << " at " << (int)f.location.kind << ":" << f.location.func << "." << f.location.stage << "."
          << f.location.loop << " store " << (f.store_location ? f.store_location->loop : "-") << " x"
          << f.iterations_per_allocation << " mem " << (int)f.memory_type << " extents";
        for (int64_t e : f.extents) o << " " << e;
        o << " storage";
        for (int64_t e : f.storage_extents) o << " " << e;
        for (const ModelStage &s : f.stages) {
            o << "\n  stage unroll " << s.auto_unroll_max_step << (s.gpu_single_thread ? " single" : "") << ":";
            for (const ModelLoop &l : s.loops) {
                o << " " << l.name << "/" << (int)l.kind << "/" << l.extent << "/" << (int)l.annotation
                  << (l.constant_extent ? "c" : "") << (l.tail ? "t" : "") << (l.guarded_tail ? "g" : "");
            }
        }
        o << "\n";
    }
    return o.str();
}

// `program`'s steps added one at a time, as sketch rules and the annotator
// grow a program: every prefix in replay order.
std::vector<State> prefixes(const PipelineDAG &dag, const State &program) {
    std::vector<State> out;
    State grown(dag);
    for (const StepPtr &step : program.steps()) {
        grown.add(step);
        out.push_back(grown);
    }
    return out;
}

}  // namespace

TEST_CASE("replay memo: loop nests built from remembered prefixes are those a fresh replay builds") {
    const Halide::Target cpu = ansor_test::cpu_target();
    for (ansor_test::Pipe p : {ansor_test::make_stencil_chain(), ansor_test::make_depthwise_pointwise(),
                               ansor_test::make_matmul_relu()}) {
        PipelineDAG dag(p.functions(), 2);
        const std::vector<State> sketches = generate_sketches({dag, cpu});
        REQUIRE_FALSE(sketches.empty());
        std::vector<State> programs = ansor_test::sample_programs(dag, sketches, cpu, 8, 3);
        programs.insert(programs.end(), sketches.begin(), sketches.end());
        int compared = 0;
        // Few entries, so that most prefixes are forgotten again.
        ReplayMemo memo(16);
        for (const State &program : programs) {
            for (const State &s : prefixes(dag, program)) {
                std::string fresh, fresh_refusal, remembered, remembered_refusal;
                {
                    ReplayMemo *const active = ReplayMemo::active();
                    REQUIRE(active == &memo);
                }
                try {
                    remembered = digest(*s.replayed());
                } catch (const InvalidState &e) {
                    remembered_refusal = e.what();
                }
                try {
                    // A second memo is the thread's until it goes: none of
                    // the first's entries, so a fresh replay.
                    ReplayMemo fresh_memo;
                    fresh = digest(*s.replayed());
                } catch (const InvalidState &e) {
                    fresh_refusal = e.what();
                }
                CHECK(ReplayMemo::active() == &memo);
                CHECK(remembered == fresh);
                CHECK(remembered_refusal == fresh_refusal);
                compared++;
            }
        }
        CHECK(compared > 20);
    }
}

TEST_CASE("replay memo: a refused program is refused again, and its extensions too") {
    ansor_test::Pipe p = ansor_test::make_blur();
    PipelineDAG dag(p.functions(), 2);
    State s(dag);
    const std::string out = dag.nodes().back().name;
    s.add(std::make_shared<StoreAtStep>(out, Location{LocationKind::At, out, 0, "no_such_loop"}));
    State longer = s;
    longer.add(std::make_shared<ComputeLocationStep>(dag.nodes().front().name, Location{LocationKind::Root, "", 0, ""}));
    std::string first;
    {
        ReplayMemo memo;
        try {
            s.replayed();
        } catch (const InvalidState &e) {
            first = e.what();
        }
        REQUIRE_FALSE(first.empty());
        CHECK_THROWS_WITH_AS(s.replayed(), first.c_str(), InvalidState);
        CHECK_THROWS_WITH_AS(longer.replayed(), first.c_str(), InvalidState);
    }
    // Without a memo: the same refusals.
    REQUIRE(ReplayMemo::active() == nullptr);
    CHECK_THROWS_WITH_AS(longer.replay(), first.c_str(), InvalidState);
}
