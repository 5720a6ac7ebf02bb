// Sliding windows: the store_at step (a producer stored at an outer loop of
// its consumer and computed at an inner one) and the sketch rule
// sliding_window_at_consumer_tile. Programs of the new sketches must compute
// what the all-at-root reference computes.
#include "annotate/random_annotator.h"
#include "features/program_features.h"
#include "measure/measurer.h"
#include "records/canonical_steps.h"
#include "records/pipeline_key.h"
#include "search/mutations.h"
#include "search/program_sampler.h"
#include "sketch/sketch_generator.h"
#include "measure_test_support.h"
#include "test_pipelines.h"
#include "util/errors.h"

#include <doctest/doctest.h>

using namespace ansor;

namespace {

Halide::Target cpu() { return ansor_test::cpu_target(); }

std::string name_of(const PipelineDAG &dag, const std::string &base) { return ansor_test::resolve(dag, base); }

std::optional<Location> step_location(const State &s, const std::string &func, bool storage) {
    const FuncSteps *g = s.group(func);
    if (!g) return std::nullopt;
    for (const auto &step : g->steps) {
        if (const Location *l = storage ? step->storage() : step->placement()) return *l;
    }
    return std::nullopt;
}

std::vector<std::string> reorder_of(const State &s, const std::string &func, int stage) {
    if (const FuncSteps *g = s.group(func)) {
        for (const auto &step : g->steps) {
            if (auto r = step->as<ReorderStep>(); r && r->stage == stage) return r->order;
        }
    }
    return {};
}

bool at(const std::optional<Location> &l, const std::string &func, const std::string &loop) {
    return l && l->kind == LocationKind::At && l->func == func && l->loop == loop;
}

bool slides(const State &s) { return s.structure_key().find("store_at") != std::string::npos; }

// The output tiled 8 x 4 (y_0, x_0, y_1, x_1), stage_1 computed at the row
// loop y_1 and stored at the tile loop x_0.
State sliding_stage_1(const PipelineDAG &dag) {
    const std::string out = name_of(dag, "out"), s1 = name_of(dag, "stage_1");
    State s(dag);
    s.add(std::make_shared<SplitStep>(out, 0, "y", std::vector<int64_t>{4}));
    s.add(std::make_shared<SplitStep>(out, 0, "x", std::vector<int64_t>{8}));
    s.add(std::make_shared<ReorderStep>(out, 0, std::vector<std::string>{"y_0", "x_0", "y_1", "x_1"}));
    s.add(std::make_shared<ComputeLocationStep>(s1, Location{LocationKind::At, out, 0, "y_1"}));
    s.add(std::make_shared<StoreAtStep>(s1, Location{LocationKind::At, out, 0, "x_0"}));
    return s;
}

}  // namespace

TEST_CASE("sliding window: a stencil chain gets a sketch with the chain line-buffered in the output's tile") {
    ansor_test::Pipe p = ansor_test::make_stencil_chain(40, 24, 3);
    PipelineDAG dag(p.functions(), 2);
    const std::string out = name_of(dag, "out"), s1 = name_of(dag, "stage_1"), s0 = name_of(dag, "stage_0");
    const auto sketches = generate_sketches({dag, cpu()});
    int sliding = 0;
    bool chain_slides_in_out = false;
    for (const State &s : sketches) {
        if (!slides(s)) continue;
        sliding++;
        REQUIRE_NOTHROW(s.replay());
        const std::vector<std::string> order = reorder_of(s, out, 0);
        if (order.size() == 4 && at(step_location(s, s1, true), out, order[1])) {
            // Stored at the outer tile loop, computed at the row loop inside it;
            // stage_0 slides with it.
            CHECK(at(step_location(s, s1, false), out, order[2]));
            CHECK(at(step_location(s, s0, true), out, order[1]));
            CHECK(at(step_location(s, s0, false), out, order[2]));
            chain_slides_in_out = true;
        }
    }
    CHECK(chain_slides_in_out);
    // Sliding: the chain in out's tile, the chain in stage_1's tile, and the
    // boundary Func alone in stage_0's tile; beside the four sketches of
    // compute_at_consumer_tile and skip.
    CHECK(sliding == 3);
    CHECK(sketches.size() == 7);
}

TEST_CASE("sliding window: an elementwise consumer gets no sliding sketch") {
    ansor_test::Pipe p = ansor_test::make_elementwise_chain();
    PipelineDAG dag(p.functions(), 2);
    for (const State &s : generate_sketches({dag, cpu()})) CHECK_FALSE(slides(s));
}

TEST_CASE("sliding window: store_at folds the buffer to one row's window and computes the new rows only") {
    ansor_test::Pipe p = ansor_test::make_stencil_chain(40, 24, 3);
    PipelineDAG dag(p.functions(), 2);
    const std::string out = name_of(dag, "out"), s1 = name_of(dag, "stage_1");
    const LoopNest m = sliding_stage_1(dag).replay();
    const ModelFunc &f = m.func(s1);
    REQUIRE(f.store_location);
    CHECK(f.store_location->loop == "x_0");
    // One row of the 8-wide tile needs 10 x 3 of stage_1; over the tile's 4
    // rows the store loop needs 10 x 6, computed 2 rows per row of out.
    CHECK(f.storage_extents == std::vector<int64_t>{10, 3});
    CHECK(f.iterations_per_allocation == 4);
    CHECK(f.extents == std::vector<int64_t>{10, 2});
    CHECK(f.stages[0].loops.size() == 2);

    // The features see the folded buffer, allocated once per tile, not one
    // buffer per row.
    State at_row = sliding_stage_1(dag);
    at_row.group(s1).steps.pop_back();
    const LoopNest row_model = at_row.replay();
    auto alloc = [&](const LoopNest &model) {
        for (const StageFeatures &sf : extract_features(model)) {
            if (model.funcs()[sf.func].name == s1) return std::make_pair(sf.values[features::kAllocBegin + 0], sf.values[features::kAllocBegin + 2]);
        }
        FAIL("no statement for stage_1");
        return std::make_pair(0.f, 0.f);
    };
    const auto sliding = alloc(m), per_row = alloc(row_model);
    CHECK(sliding.first == doctest::Approx(per_row.first));  // same window: 10 x 3 floats
    CHECK(sliding.second < per_row.second);                  // allocated 4x less often
}

TEST_CASE("sliding window: store_at must enclose the compute loop across serial loops only") {
    ansor_test::Pipe p = ansor_test::make_stencil_chain(40, 24, 3);
    PipelineDAG dag(p.functions(), 2);
    const std::string out = name_of(dag, "out"), s1 = name_of(dag, "stage_1");
    auto with_store = [&](const std::string &loop) {
        State s = sliding_stage_1(dag);
        s.group(s1).steps.back() = std::make_shared<StoreAtStep>(s1, Location{LocationKind::At, out, 0, loop});
        return s;
    };
    CHECK_NOTHROW(with_store("y_0").replay());
    CHECK_THROWS_AS(with_store("y_1").replay(), InvalidState);  // the compute loop itself
    CHECK_THROWS_AS(with_store("x_1").replay(), InvalidState);  // inside the compute loop
    CHECK_THROWS_AS(with_store("nope").replay(), InvalidState);

    // A parallel row loop would share the buffer between threads.
    State parallel_rows = sliding_stage_1(dag);
    parallel_rows.group(out).steps.push_back(std::make_shared<AnnotateStep>(out, 0, "y_1", Annotation::Parallel));
    CHECK_THROWS_AS(parallel_rows.replay(), InvalidState);
    State parallel_tiles = sliding_stage_1(dag);
    parallel_tiles.group(out).steps.push_back(std::make_shared<AnnotateStep>(out, 0, "y_0", Annotation::Parallel));
    CHECK_NOTHROW(parallel_tiles.replay());

    // A Func at root has no loop to be stored outside of.
    State root(dag);
    root.add(std::make_shared<ComputeLocationStep>(s1, Location{}));
    root.add(std::make_shared<StoreAtStep>(s1, Location{LocationKind::At, out, 0, "y"}));
    CHECK_THROWS_AS(root.replay(), InvalidState);
}

TEST_CASE("sliding window: store_at lowers to Halide, round-trips through JSON and canonical names") {
    ansor_test::Pipe p = ansor_test::make_stencil_chain(40, 24, 3);
    PipelineDAG dag(p.functions(), 2);
    const State s = sliding_stage_1(dag);
    CHECK(s.source().find(".store_at(") != std::string::npos);
    CHECK(s.structure_key().find("store_at " + name_of(dag, "stage_1") + " " + name_of(dag, "out") + ";") !=
          std::string::npos);
    const State back = State::from_json(dag, s.to_json());
    CHECK(back.key() == s.key());
    const PipelineKey key = make_pipeline_key(dag);
    const nlohmann::json canon = canonical_steps(s, key.names);
    CHECK(canon.dump().find("store_at") != std::string::npos);
    CHECK(state_from_canonical_steps(dag, key.names, canon).key() == s.key());
    CHECK_THROWS_AS(step_from_json({{"kind", "store_at"}, {"func", "f"}}), UserError);
}

TEST_CASE("sliding window: programs of the sliding sketches compute what the reference computes") {
    struct Case {
        std::string name;
        ansor_test::Pipe pipe;
    };
    std::vector<Case> cases = {{"stencil_chain", ansor_test::make_stencil_chain(40, 24, 3)},
                               {"blur", ansor_test::make_blur(64, 32)}};
    for (auto &c : cases) {
        CAPTURE(c.name);
        PipelineDAG dag(c.pipe.functions(), 2);
        std::vector<State> sliding;
        for (const State &s : generate_sketches({dag, cpu()})) {
            if (slides(s)) sliding.push_back(s);
        }
        REQUIRE(!sliding.empty());
        AnnotationOptions ao;
        ao.parallelism = 2;
        RandomAnnotator annotator(dag, cpu(), ao);
        ProgramSampler sampler(sliding, annotator);
        std::mt19937_64 rng(11);
        std::vector<State> programs;
        for (int i = 0; i < 4; i++) {
            auto s = sampler.sample(rng);
            REQUIRE(s);
            CHECK(slides(*s));
            programs.push_back(*s);
        }
        // Mutations keep the store level (the tile sizes and annotations change).
        Mutator mutator(annotator, ao);
        for (int i = 0; i < 20 && programs.size() < 6; i++) {
            if (auto child = mutator.mutate(programs[0], rng); child && slides(*child)) programs.push_back(*child);
        }
        ansor_test::expect_all_correct(dag, programs);
    }
}
