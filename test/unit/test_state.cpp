#include "annotate/random_annotator.h"
#include "measure/pipeline_runner.h"
#include "search/mutations.h"
#include "search/state_edit.h"
#include "sketch/sketch_generator.h"
#include "sketch_test_support.h"
#include "test_pipelines.h"
#include "util/errors.h"

#include <doctest/doctest.h>

#include <set>

using namespace ansor;

namespace {
Halide::Target cpu() {
    return Halide::Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");
}
}  // namespace

TEST_CASE("factorization: every choice multiplies to a divisor and respects the innermost limit") {
    FactorizationMemo memo(16);
    for (int64_t e : {1, 7, 12, 64, 224, 1000}) {
        for (const auto &f : memo.factorizations(e, 3)) {
            int64_t p = f[0] * f[1] * f[2];
            CHECK(e % p == 0);
            CHECK(f[2] <= 16);
        }
    }
    CHECK(memo.factorizations(64, 1).size() == 5);  // 1 2 4 8 16
    // A prime extent also gets padded choices (rounded up to 8's multiple).
    bool padded = false;
    for (const auto &f : memo.factorizations(97, 1)) padded |= 97 % f[0] != 0;
    CHECK(padded);
}

TEST_CASE("factorization: vector-friendly draws keep the innermost factor a multiple of the width") {
    FactorizationMemo memo(64);
    std::mt19937_64 rng(5);
    std::set<int64_t> innermost;
    for (int i = 0; i < 200; i++) {
        auto f = memo.sample_innermost_multiple(1024, 2, 16, rng);
        REQUIRE(f.has_value());
        CHECK(f->back() % 16 == 0);
        CHECK(1024 % (f->at(0) * f->at(1)) == 0);
        innermost.insert(f->back());
    }
    CHECK(innermost == std::set<int64_t>{16, 32, 64});  // every fitting choice is drawn
    CHECK_FALSE(memo.sample_innermost_multiple(12, 2, 16, rng).has_value());
}

TEST_CASE("annotation and tile mutation: a reduction loop's inner tile has its own limit") {
    // The inner piece of a reduction split is a cache block (GEMM's K block),
    // not a register tile, so it may pass the space loops' 64.
    auto p = ansor_test::make_matmul(1024);
    PipelineDAG dag(p.functions(), 2);
    std::vector<State> sketches = generate_sketches({dag, cpu()});
    REQUIRE(!sketches.empty());
    for (int64_t reduction_limit : {int64_t(64), int64_t(1024)}) {
        CAPTURE(reduction_limit);
        AnnotationOptions ao;
        ao.parallelism = 2;
        ao.max_reduction_factor = reduction_limit;
        RandomAnnotator annotator(dag, cpu(), ao);
        std::mt19937_64 rng(3);
        int64_t largest_space = 0, largest_reduction = 0;
        auto record_splits = [&](const State &s) {
            for (const FuncSteps &g : s.groups()) {
                for (size_t k = 0; k < g.steps.size(); k++) {
                    auto split = std::dynamic_pointer_cast<const SplitStep>(g.steps[k]);
                    if (!split || split->factors.empty()) continue;
                    LoopKind kind = model_before(s, g.func, k).loop(g.func, split->stage, split->loop).kind;
                    int64_t &largest = kind == LoopKind::Reduction ? largest_reduction : largest_space;
                    largest = std::max(largest, split->factors.back());
                }
            }
        };
        for (int i = 0; i < 100; i++) {
            State s = ansor_test::annotate_fitting(annotator, sketches[i % sketches.size()], rng);
            record_splits(s);
            for (int m = 0; m < 5; m++) {
                if (auto child = mutate_tile_size(s, ao, rng)) s = *child;
                record_splits(s);
            }
        }
        CHECK(largest_space <= 64);
        CHECK(largest_reduction <= reduction_limit);
        // Both limits are reached: the draws cover the whole allowed range.
        CHECK(largest_space == 64);
        CHECK(largest_reduction == reduction_limit);
    }
}

TEST_CASE("annotation: with the vector bias at 1, a matmul's vectorised loop is a multiple of the width") {
    auto p = ansor_test::make_matmul(256);
    PipelineDAG dag(p.functions(), 2);
    std::vector<State> sketches = generate_sketches({dag, cpu()});
    REQUIRE(!sketches.empty());
    for (double bias : {0.0, 1.0}) {
        CAPTURE(bias);
        AnnotationOptions ao;
        ao.parallelism = 2;
        ao.vector_tile_bias = bias;
        RandomAnnotator annotator(dag, cpu(), ao);
        std::mt19937_64 rng(7);
        int stages = 0, full_width = 0;
        for (int i = 0; i < 100; i++) {
            LoopNest m = ansor_test::annotate_fitting(annotator, sketches[i % sketches.size()], rng).replay();
            for (const ModelFunc &f : m.funcs()) {
                for (const ModelStage &st : f.stages) {
                    if (st.loops.empty() || st.loops.back().annotation != Annotation::Vectorize) continue;
                    stages++;
                    full_width += st.loops.back().extent % 16 == 0;
                }
            }
        }
        REQUIRE(stages > 0);
        if (bias == 1.0) {
            CHECK(full_width == stages);
        } else {
            CHECK(full_width < stages);  // uniform draws often leave narrow vectors
        }
    }
}

TEST_CASE("state: split, reorder and fuse replay onto the loop-nest model") {
    auto p = ansor_test::make_matmul(64);
    PipelineDAG dag(p.functions(), 2);
    const std::string mm = ansor_test::resolve(dag, "matmul");
    State s(dag);
    s.add(std::make_shared<SplitStep>(mm, 1, "x", std::vector<int64_t>{4, 8}));
    LoopNest m = s.replay();
    CHECK(m.loop(mm, 1, "x_0").extent == 2);
    CHECK(m.loop(mm, 1, "x_1").extent == 4);
    CHECK(m.loop(mm, 1, "x_2").extent == 8);
    CHECK(m.loop(mm, 1, "x_2").constant_extent);
    s.add(std::make_shared<FuseStep>(mm, 0, std::vector<std::string>{"y", "x"}));
    m = s.replay();
    CHECK(m.loop(mm, 0, "y_x_f").extent == 64 * 64);
    // A step naming a loop that is gone makes the state invalid.
    s.add(std::make_shared<AnnotateStep>(mm, 1, "x", Annotation::Parallel));
    CHECK_THROWS_AS(s.replay(), InvalidState);
}

TEST_CASE("state: compute_at shrinks the producer to its footprint") {
    auto p = ansor_test::make_blur(256, 128);
    PipelineDAG dag(p.functions(), 2);
    const std::string bx = ansor_test::resolve(dag, "blur_x"), by = ansor_test::resolve(dag, "blur_y");
    State s(dag);
    s.add(std::make_shared<SplitStep>(by, 0, "y", std::vector<int64_t>{8}));
    s.add(std::make_shared<ComputeLocationStep>(bx, Location{LocationKind::At, by, 0, "y_0"}));
    LoopNest m = s.replay();
    CHECK(m.func(bx).extents == std::vector<int64_t>{256, 10});  // 8 rows + 2 of halo
    // An output cannot move, and a stage cannot be inlined if it has updates.
    State bad(dag);
    bad.add(std::make_shared<ComputeLocationStep>(by, Location{LocationKind::Inline, "", 0, ""}));
    CHECK_THROWS_AS(bad.replay(), InvalidState);
}

TEST_CASE("state: JSON round trip keeps every step, and printing follows the steps") {
    auto p = ansor_test::make_matmul_relu(64);
    PipelineDAG dag(p.functions(), 2);
    auto sketches = generate_sketches({dag, cpu()});
    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, cpu(), ao);
    std::mt19937_64 rng(1);
    for (int i = 0; i < 20; i++) {
        State s = annotator.annotate(sketches[0], rng);
        State back = State::from_json(dag, nlohmann::json::parse(s.to_json().dump()));
        CHECK(back.key() == s.key());
        CHECK(back.source() == s.source());
        // Every split of the sketch got sizes.
        for (const auto &st : s.steps()) {
            if (auto sp = std::dynamic_pointer_cast<const SplitStep>(st)) CHECK(sp->filled());
        }
        std::string src = s.source();
        CHECK(src.find(".compute_at(") != std::string::npos);
        CHECK(src.find(", x_1);") != std::string::npos);
        CHECK(src.find("pipeline.get_func(") != std::string::npos);
    }
    CHECK_THROWS_WITH_AS(State::from_json(dag, nlohmann::json::parse(R"([{"kind":"twist","func":"x"}])")),
                         doctest::Contains("unknown step kind 'twist'"), UserError);
    CHECK_THROWS_AS(State::from_json(dag, nlohmann::json::parse(R"([{"kind":"split","func":"x"}])")), UserError);
}

TEST_CASE("annotation: a boundary-condition conv samples, and unrolling never copies a computed-at producer") {
    auto p = ansor_test::make_padded_conv();
    PipelineDAG dag(p.functions(), 2);
    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, cpu(), ao);
    std::vector<State> sketches = generate_sketches({dag, cpu()});
    REQUIRE(!sketches.empty());
    std::mt19937_64 rng(3);
    int unrolled = 0, attached = 0;
    for (int i = 0; i < 200; i++) {
        State s = annotator.annotate(sketches[i % sketches.size()], rng);
        LoopNest m = s.replay();
        for (const ModelFunc &f : m.funcs()) {
            for (size_t st = 0; st < f.stages.size(); st++) {
                const auto &loops = f.stages[st].loops;
                // Innermost loop that holds a producer: nothing at or outside it is unrolled.
                int holder = -1;
                for (int l = 0; l < (int)loops.size(); l++) {
                    if (m.has_attached(f.name, (int)st, loops[l].name)) holder = l;
                }
                attached += holder >= 0;
                for (int l = 0; l <= holder; l++) {
                    CAPTURE(s.source());
                    CHECK(loops[l].annotation != Annotation::Unroll);
                }
                for (const auto &l : loops) unrolled += l.annotation == Annotation::Unroll;
            }
        }
        CHECK_NOTHROW(s.lower());
    }
    // The samples exercised both features the check is about.
    CHECK(attached > 0);
    CHECK(unrolled > 0);
}

TEST_CASE("annotation: a parallel loop balances the threads") {
    CHECK(balances_threads(2, 2));
    CHECK(balances_threads(4, 2));
    CHECK(balances_threads(9, 2));    // 9 of 10 slots busy
    CHECK_FALSE(balances_threads(3, 2));  // one thread idle a third of the time
    CHECK_FALSE(balances_threads(7, 2));
    CHECK_FALSE(balances_threads(1, 2));
    CHECK(balances_threads(16, 2));
    CHECK_FALSE(balances_threads(20, 16));
    CHECK(balances_threads(128, 16));

    // out(x, y, c) over 3 channels, c outermost: the annotator and the
    // parallel mutation never parallelise the 3 channels alone on 2 threads.
    Halide::ImageParam in(Halide::Float(32), 3, "in");
    in.dim(0).set_estimate(0, 128).dim(1).set_estimate(0, 96).dim(2).set_estimate(0, 3);
    Halide::Var x("x"), y("y"), c("c");
    Halide::Func out("out");
    out(x, y, c) = in(x, y, c) * 2.f + 1.f;
    out.set_estimate(x, 0, 128).set_estimate(y, 0, 96).set_estimate(c, 0, 3);
    PipelineDAG dag({out.function()}, 2);
    std::vector<State> sketches = generate_sketches({dag, cpu()});
    REQUIRE(!sketches.empty());
    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, cpu(), ao);
    Mutator mutator(annotator, ao);
    std::mt19937_64 rng(3);
    int parallel_loops = 0;
    auto check_parallel = [&](const State &program) {
        const LoopNest m = program.replay();
        for (const ModelFunc &f : m.funcs()) {
            for (const ModelStage &st : f.stages) {
                for (const ModelLoop &l : st.loops) {
                    if (l.annotation != Annotation::Parallel) continue;
                    parallel_loops++;
                    CHECK(balances_threads(l.extent, 2));
                }
            }
        }
    };
    for (int i = 0; i < 40; i++) {
        State program = annotator.annotate(sketches[i % sketches.size()], rng);
        check_parallel(program);
        for (int k = 0; k < 4; k++) {
            if (auto mutant = mutator.mutate(program, MutationKind::Parallel, rng)) check_parallel(*mutant);
        }
    }
    CHECK(parallel_loops >= 40);
}

TEST_CASE("rfactor: a Func renamed apart by Halide ('total$1') is factored and applied") {
    // Halide renames a Func whose name is taken ("total" -> "total$1") and
    // names that one's rfactor intermediate "total_1_intm".
    Halide::ImageParam in(Halide::Float(32), 1, "in");
    in.dim(0).set_estimate(0, 4096);
    Halide::RDom r(0, 4096, "r");
    Halide::Func total("total$1");
    total() = 0.f;
    total() += in(r);
    PipelineDAG dag({total.function()}, 2);
    const Halide::Target cpu("x86-64-linux-avx-avx2-f16c-fma-sse41");
    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, cpu, ao);
    int factored = 0;
    std::mt19937_64 rng(3);
    for (const State &sketch : generate_sketches({dag, cpu})) {
        if (sketch.source().find("rfactor") == std::string::npos) continue;
        factored++;
        for (int i = 0; i < 4; i++) {
            const State program = annotator.annotate(sketch, rng);
            CAPTURE(program.source());
            CHECK_NOTHROW(scheduled_pipeline(dag, &program));
        }
    }
    CHECK(factored > 0);
}
