// Programs the fuzzer found the search building wrongly (ansor_fuzz,
// docs/fuzzing.md), reduced to their structure: each is now built safely
// or refused.
#include "annotate/factorization.h"
#include "annotate/random_annotator.h"
#include "search/mutations.h"
#include "search/program_sampler.h"
#include "sketch/sketch_generator.h"
#include "state/state.h"
#include "state/steps.h"
#include "lowering_test_support.h"
#include "sketch_test_support.h"
#include "measure_test_support.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

#include <set>

using namespace ansor;
using namespace Halide;

namespace {

int count_kind(const State &s, Directive::Kind kind) {
    int n = 0;
    for (const Directive &d : s.lower()) n += d.kind == kind;
    return n;
}

}  // namespace

TEST_CASE("a Func computed inside a consumer's loop gets 64-byte-aligned rows") {
    // Seeds 4, 34, 76, 121: an edge Func computed at the x tile of a 2x
    // downsample vectorised by 16 held 33-float rows, and Halide 14 emitted
    // aligned AVX-512 loads at odd row offsets (segfaults).
    ImageParam in(Float(32), 2, "in");
    in.dim(0).set_estimate(0, 800);
    in.dim(1).set_estimate(0, 300);
    Var x("x"), y("y");
    Func edge("edge"), down("down");
    edge(x, y) = in(clamp(x, 0, 799), clamp(y, 0, 299));
    down(x, y) = edge(2 * x - 1, y) + 2.f * edge(2 * x, y) + edge(2 * x + 1, y);
    down.set_estimate(x, 0, 400).set_estimate(y, 0, 300);
    PipelineDAG dag({down.function()}, 2);

    State s(dag);
    s.add(std::make_shared<SplitStep>("down", 0, "x", std::vector<int64_t>{16}));
    s.add(std::make_shared<AnnotateStep>("down", 0, "x_1", Annotation::Vectorize));
    s.add(std::make_shared<ComputeLocationStep>("edge", Location{LocationKind::At, "down", 0, "x_0"}));
    bool aligned = false;
    for (const Directive &d : s.lower()) {
        if (d.kind != Directive::Kind::AlignStorage) continue;
        CHECK(d.func == "edge");
        CHECK(d.loops[0].name == "x");
        CHECK(d.factor == 16);  // 64 bytes of float32
        aligned = true;
    }
    CHECK(aligned);
    CHECK(s.source().find("edge.align_storage(x, 16);") != std::string::npos);

    // Applied and run: the same values as the unscheduled pipeline.
    Buffer<float> input(800, 300);
    for (int j = 0; j < 300; j++)
        for (int i = 0; i < 800; i++) input(i, j) = (float)((i * 7 + j * 3) % 17);
    in.set(input);
    s.apply(dag.env());
    Buffer<float> out = Pipeline(down).realize({400, 300});
    int wrong = 0;
    for (int j = 0; j < 300; j++) {
        for (int i = 0; i < 400; i++) {
            auto at = [&](int xx) { return input(std::min(std::max(xx, 0), 799), j); };
            wrong += out(i, j) != at(2 * i - 1) + 2.f * at(2 * i) + at(2 * i + 1);
        }
    }
    CHECK(wrong == 0);

    // At root there is nothing to align.
    State root(dag);
    root.add(std::make_shared<ComputeLocationStep>("edge", Location{LocationKind::Root, "", 0, ""}));
    CHECK(count_kind(root, Directive::Kind::AlignStorage) == 0);
}

TEST_CASE("vector widths one past a multiple of the vector unit stay scalar") {
    // Seeds 87, 112: a 33-wide tile vectorised with a guarded tail made
    // Halide 14 pass 1-lane slices to LLVM's masked load/store intrinsics.
    CHECK(vector_width_breaks_codegen(33, 4));
    CHECK(vector_width_breaks_codegen(17, 4));
    CHECK(vector_width_breaks_codegen(65, 1));
    CHECK(vector_width_breaks_codegen(9, 2));
    CHECK_FALSE(vector_width_breaks_codegen(32, 4));
    CHECK_FALSE(vector_width_breaks_codegen(16, 4));
    CHECK_FALSE(vector_width_breaks_codegen(3, 4));
    CHECK_FALSE(vector_width_breaks_codegen(4, 4));
    CHECK_FALSE(vector_width_breaks_codegen(1, 4));

    ImageParam in(Float(32), 2, "in");
    in.dim(0).set_estimate(0, 99);
    in.dim(1).set_estimate(0, 10);
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = in(x, y) * 2.f;
    f.set_estimate(x, 0, 99).set_estimate(y, 0, 10);
    PipelineDAG dag({f.function()}, 2);
    State wide(dag);
    wide.add(std::make_shared<SplitStep>("f", 0, "x", std::vector<int64_t>{33}));
    wide.add(std::make_shared<AnnotateStep>("f", 0, "x_1", Annotation::Vectorize));
    CHECK(count_kind(wide, Directive::Kind::Vectorize) == 0);
    State narrow(dag);
    narrow.add(std::make_shared<SplitStep>("f", 0, "x", std::vector<int64_t>{32}));
    narrow.add(std::make_shared<AnnotateStep>("f", 0, "x_1", Annotation::Vectorize));
    CHECK(count_kind(narrow, Directive::Kind::Vectorize) == 1);
}

TEST_CASE("a guarded tail is not split into more than one level") {
    // Seeds 26, 95: an update tiled y -> 208 -> 2 over 205 rows lost its
    // guard in Halide 14 and wrote past its buffer (heap corruption).
    ImageParam A(Float(32), 2, "A"), B(Float(32), 2, "B");
    Func C = ansor_test::matmul(A, B, 23);
    C.set_estimate(C.args()[0], 0, 23).set_estimate(C.args()[1], 0, 205);
    PipelineDAG dag({C.function()}, 2);
    const std::string mm = C.name();
    State two_levels(dag);
    two_levels.add(std::make_shared<SplitStep>(mm, 1, "y", std::vector<int64_t>{104, 2}));
    CHECK_THROWS_AS(two_levels.replay(), InvalidState);
    State dividing(dag);  // 205 = 41 * 5: no tail
    dividing.add(std::make_shared<SplitStep>(mm, 1, "y", std::vector<int64_t>{41, 5}));
    CHECK_NOTHROW(dividing.replay());
    State one_level(dag);
    one_level.add(std::make_shared<SplitStep>(mm, 1, "y", std::vector<int64_t>{208}));
    CHECK_NOTHROW(one_level.replay());
}

TEST_CASE("an update's loop is not tiled in more than one level with a guarded tail") {
    // Seeds 18, 70, 77, 95, 110, 122: a matrix product's update tiled
    // y -> 32 -> 4 -> 1 over 158 rows (the tile within the dim) corrupted
    // the heap in Halide 14 as the larger-than-the-dim tiles above did; the
    // same tilings under an unrolled inner tile took minutes to compile.
    ImageParam A(Float(32), 2, "A"), B(Float(32), 2, "B");
    Func C = ansor_test::matmul(A, B, 157);
    C.set_estimate(C.args()[0], 0, 157).set_estimate(C.args()[1], 0, 158);
    PipelineDAG dag({C.function()}, 2);
    const std::string mm = C.name();
    auto tiled = [&](int stage, std::vector<int64_t> factors) {
        State s(dag);
        s.add(std::make_shared<SplitStep>(mm, stage, "y", std::move(factors)));
        return s;
    };
    CHECK_THROWS_AS(tiled(1, {8, 4, 1}).replay(), InvalidState);  // 158 = 4 * 32 + 30
    CHECK_THROWS_AS(tiled(1, {8, 4}).replay(), InvalidState);
    CHECK_NOTHROW(tiled(1, {32}).replay());     // one guarded level
    CHECK_NOTHROW(tiled(1, {2, 79}).replay());  // no tail
    CHECK_NOTHROW(tiled(0, {8, 4}).replay());   // the pure stage's tail is shifted inwards

    // The annotator draws such tiles among those without a tail; 158 has
    // padded choices (it has only 4 divisors), which it draws otherwise.
    FactorizationMemo memo(64);
    std::mt19937_64 rng(7);
    bool padded = false;
    for (int i = 0; i < 200; i++) {
        std::vector<int64_t> exact = memo.sample(158, 3, rng, true);
        CHECK(158 % (exact[0] * exact[1] * exact[2]) == 0);
        std::vector<int64_t> any = memo.sample(158, 3, rng);
        padded |= 158 % (any[0] * any[1] * any[2]) != 0;
        if (auto v = memo.sample_innermost_multiple(158, 2, 2, rng, true)) {
            CHECK(158 % ((*v)[0] * (*v)[1]) == 0);
            CHECK((*v)[1] % 2 == 0);
        }
    }
    CHECK(padded);
}

TEST_CASE("no drawn program fuses two pieces of one dim into one loop") {
    // Seeds 85, 95: a matrix product's update tiled c -> 3 -> 1 (and y, x)
    // with its loops c_0, y_0, x_0 and c_1 fused and parallel; Halide 14
    // then computed the cache write's intermediate, inside, for channels
    // past the input's.
    ImageParam A(Float(32), 3, "A3"), B(Float(32), 3, "B3");
    Var x("x"), y("y"), c("c");
    RDom k(0, 31, "k3");
    Func mm("mm3");
    mm(x, y, c) = 0.f;
    mm(x, y, c) += A(k, y, c) * B(x, k, c);
    mm.set_estimate(x, 0, 79).set_estimate(y, 0, 31).set_estimate(c, 0, 3);
    A.set_estimates({{0, 31}, {0, 31}, {0, 3}});
    B.set_estimates({{0, 79}, {0, 31}, {0, 3}});
    PipelineDAG dag({mm.function()}, 2);
    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, ansor_test::cpu_target(), ao);
    ProgramSampler sampler(generate_sketches({dag, ansor_test::cpu_target()}), annotator);
    std::mt19937_64 rng(5);
    int fused = 0;
    for (int i = 0; i < 300; i++) {
        std::optional<State> s = sampler.sample(rng);
        if (!s) continue;
        const LoopNest m = s->replay();
        for (const ModelFunc &f : m.funcs()) {
            for (const ModelStage &st : f.stages) {
                for (const ModelLoop &l : st.loops) {
                    if (l.fused_from.empty()) continue;
                    fused++;
                    std::set<std::string> dims;
                    for (const auto &o : l.origins) {
                        CAPTURE(s->source());
                        CHECK(dims.insert(o.first).second);
                    }
                }
            }
        }
    }
    CHECK(fused > 50);

    // The rule itself: y may join c_0, c_1 may not.
    State tiled(dag);
    tiled.add(std::make_shared<SplitStep>(mm.name(), 1, "c", std::vector<int64_t>{3, 1}));
    const LoopNest m = tiled.replay();
    const ModelStage &update = m.stage(mm.name(), 1);
    REQUIRE(update.find("c_1") >= 0);
    REQUIRE(update.find("y") >= 0);
    CHECK_FALSE(repeats_a_dim(update, {"c_0"}, update.loops[update.find("y")]));
    CHECK(repeats_a_dim(update, {"c_0"}, update.loops[update.find("c_1")]));
}

TEST_CASE("a Func with update definitions is not stored outside the loop it is computed in") {
    // Seed 108 (and 70, 95): a column sum computed at a row loop of its
    // consumer and stored outside it (a sliding window) had its pure
    // definition slid by Halide 14 while its reduction update ran again on
    // every row: the sums grew with each row, a wrong output.
    ImageParam in(Float(32), 2, "in");
    in.dim(0).set_estimate(0, 64);
    in.dim(1).set_estimate(0, 48);
    Var x("x"), y("y");
    RDom r(0, 48);
    Func colsum("colsum"), norm("norm"), out("out");
    colsum(x) = 0.f;
    colsum(x) += in(x, r);
    norm(x, y) = in(x, clamp(y, 0, 47)) / (colsum(x) + 1.f);
    out(x, y) = norm(x, y - 1) + norm(x, y) + norm(x, y + 1);
    out.set_estimate(x, 0, 64).set_estimate(y, 0, 48);
    PipelineDAG dag({out.function()}, 2);
    // Names as Halide made them (unique within the process).
    const std::string o = out.name(), n = norm.name(), c = colsum.name();
    const Location row{LocationKind::At, o, 0, "y_1"}, tile{LocationKind::At, o, 0, "y_0"};
    // norm and colsum computed at out's row loop; `stored` at its tile loop.
    auto at_row = [&](const std::string &stored) {
        State s(dag);
        s.add(std::make_shared<SplitStep>(o, 0, "y", std::vector<int64_t>{8}));
        s.add(std::make_shared<ComputeLocationStep>(n, row));
        s.add(std::make_shared<ComputeLocationStep>(c, row));
        if (!stored.empty()) s.add(std::make_shared<StoreAtStep>(stored, tile));
        return s;
    };
    CHECK_NOTHROW(at_row("").replay());  // stored where computed: fine
    CHECK_NOTHROW(at_row(n).replay());   // a pure Func slides
    State sum_slides = at_row(c);
    CHECK_THROWS_WITH_AS(sum_slides.replay(), doctest::Contains("has update definitions"), InvalidState);
}

TEST_CASE("a Func reading an input unclamped is not computed inside a guarded tail") {
    // Seeds 15, 18, 32, 85, 109, 112: a cache-write intermediate of a matrix
    // product computed inside the output's tile, whose split had a guarded
    // tail, read the input past its end ("Input buffer ... is accessed at N,
    // which is beyond the max").
    ImageParam A(Float(32), 2, "A"), B(Float(32), 2, "B");
    Func C = ansor_test::matmul(A, B, 36);
    C.set_estimate(C.args()[0], 0, 109).set_estimate(C.args()[1], 0, 64);
    PipelineDAG dag({C.function()}, 2);
    const std::string mm = C.name(), intm = mm + "_intm";
    auto tiled = [&](int64_t x_tile) {
        State s(dag);
        s.add(std::make_shared<CacheWriteStep>(mm));
        s.add(std::make_shared<SplitStep>(mm, 1, "x", std::vector<int64_t>{x_tile}));
        s.add(std::make_shared<ComputeLocationStep>(intm, Location{LocationKind::At, mm, 1, "x_0"}));
        return s;
    };
    CHECK_THROWS_AS(tiled(7).replay(), InvalidState);  // 109 = 15 * 7 + 4: a tail
    CHECK_NOTHROW(tiled(109).replay());                 // no tail
}

TEST_CASE("a cache write applies where the process already made an intermediate of that name") {
    // Seed 197 of a 500-seed run: Halide names rfactor's intermediate
    // uniquely within the process ("f_intm$1" once something here made an
    // "f_intm", as an earlier pipeline with a Func of the same name does),
    // and applying the schedule failed on the name.
    ImageParam A(Float(32), 2, "A"), B(Float(32), 2, "B");
    Func C = ansor_test::matmul(A, B, 24, "renamed_mm");
    C.set_estimate(C.args()[0], 0, 24).set_estimate(C.args()[1], 0, 24);
    PipelineDAG dag({C.function()}, 2);
    const std::string mm = C.name(), intm = mm + "_intm";
    Internal::unique_name(intm);  // what an earlier rfactor of a Func named `mm` leaves behind
    State s(dag);
    s.add(std::make_shared<CacheWriteStep>(mm));
    s.add(std::make_shared<SplitStep>(mm, 1, "x", std::vector<int64_t>{8}));
    s.add(std::make_shared<ComputeLocationStep>(intm, Location{LocationKind::At, mm, 1, "x_0"}));
    REQUIRE_NOTHROW(s.apply(dag.env()));
    Buffer<float> a(24, 24), b(24, 24);
    for (int j = 0; j < 24; j++)
        for (int i = 0; i < 24; i++) a(i, j) = (float)((i + 2 * j) % 5), b(i, j) = (float)((3 * i + j) % 7);
    A.set(a);
    B.set(b);
    Buffer<float> out = Pipeline(C).realize({24, 24});
    float want = 0;
    for (int k = 0; k < 24; k++) want += a(k, 5) * b(7, k);
    CHECK(out(7, 5) == want);
}

TEST_CASE("a vectorised split with a producer stored per row keeps a guarded tail") {
    // Seed 383: a [1 2 1] x2 downsample of a uint8 boundary condition, the
    // boundary Func computed at the downsample's row loop, its columns (a
    // constant 175, fixed by the consumer's RDom) split by 16 and
    // vectorised. ShiftInwards peels the last vector with literal indices
    // into the row buffer, and Halide 14 turns the stride-2 loads there into
    // dense loads it claims are 64-byte aligned at odd addresses: a segfault.
    ImageParam in(UInt(8), 2, "in");
    in.dim(0).set_estimate(0, 350).dim(1).set_estimate(0, 40);
    Var x("x"), y("y");
    Func edge = BoundaryConditions::repeat_edge(in);
    Func down("down"), total("total");
    down(x, y) = cast<uint8_t>((cast<uint16_t>(edge(2 * x + 1, y)) + 2 * edge(2 * x, y) + edge(2 * x - 1, y)) / 4);
    RDom r(0, 175, "r");
    total(y) = cast<uint32_t>(0);
    total(y) += cast<uint32_t>(down(r, y));
    total.set_estimate(y, 0, 40);
    PipelineDAG dag({total.function()}, 2);
    const std::string down_name = ansor_test::resolve(dag, "down");
    const std::string edge_name = ansor_test::resolve(dag, edge.name());

    State s(dag);
    s.add(std::make_shared<ComputeLocationStep>(down_name, Location{}));
    s.add(std::make_shared<SplitStep>(down_name, 0, "x", std::vector<int64_t>{16}));
    s.add(std::make_shared<AnnotateStep>(down_name, 0, "x_1", Annotation::Vectorize));
    s.add(std::make_shared<ComputeLocationStep>(edge_name, Location{LocationKind::At, down_name, 0, "y"}));
    CHECK(ansor_test::split_tails(s, down_name) == std::vector<TailStrategy>{TailStrategy::GuardWithIf});
    ansor_test::expect_all_correct(dag, {s});

    // With the boundary Func at root nothing is stored per row: the tail
    // stays shifted inwards.
    State root = s;
    root.group(edge_name).steps.back() = std::make_shared<ComputeLocationStep>(edge_name, Location{});
    CHECK(ansor_test::split_tails(root, down_name) == std::vector<TailStrategy>{TailStrategy::ShiftInwards});
    ansor_test::expect_all_correct(dag, {root});
}

TEST_CASE("a vectorised split holding a producer it reads at stride 1 keeps a shifted tail") {
    // Seed 499: the guarded tail, given where no strided load needs it,
    // crashed Halide 14's simplifier (a consumer holding a producer per
    // column tile, its outer loops fused, reading a Func whose row split is
    // shifted inwards).
    ImageParam in(Float(32), 3, "in");
    in.dim(0).set_estimate(0, 401).dim(1).set_estimate(0, 118).dim(2).set_estimate(0, 8);
    Var x("x"), y("y"), c("c");
    Func stencil("s499_stencil"), scaled("s499_scaled"), pair("s499_pair");
    stencil(x, y, c) = in(clamp(x - 1, 0, 400), y, c) + in(clamp(x + 1, 0, 400), y, c);
    scaled(x, y, c) = stencil(x, y, c) * 2.f - in(x, y, c);
    pair(x, y, c) = scaled(x, y, c) + stencil(x, y, c);
    pair.set_estimate(x, 0, 401).set_estimate(y, 0, 118).set_estimate(c, 0, 8);
    PipelineDAG dag({pair.function()}, 2);
    const std::string pair_name = ansor_test::resolve(dag, "s499_pair"), scaled_name = ansor_test::resolve(dag, "s499_scaled");
    const std::string stencil_name = ansor_test::resolve(dag, "s499_stencil");

    State s(dag);
    for (const Node &n : dag.nodes()) {
        if (n.name != pair_name && n.name != scaled_name && n.name != stencil_name) {
            s.add(std::make_shared<ComputeLocationStep>(n.name, Location{LocationKind::Inline, "", 0, ""}));
        }
    }
    s.add(std::make_shared<SplitStep>(pair_name, 0, "x", std::vector<int64_t>{16}));
    s.add(std::make_shared<AnnotateStep>(pair_name, 0, "x_1", Annotation::Vectorize));
    s.add(std::make_shared<FuseStep>(pair_name, 0, std::vector<std::string>{"c", "y"}));
    s.add(std::make_shared<ComputeLocationStep>(scaled_name, Location{LocationKind::At, pair_name, 0, "x_0"}));
    s.add(std::make_shared<SplitStep>(scaled_name, 0, "x", std::vector<int64_t>{16}));
    s.add(std::make_shared<ComputeLocationStep>(stencil_name, Location{}));
    s.add(std::make_shared<SplitStep>(stencil_name, 0, "y", std::vector<int64_t>{10}));
    CHECK(ansor_test::split_tails(s, pair_name) == std::vector<TailStrategy>{TailStrategy::ShiftInwards});
    ansor_test::expect_all_correct(dag, {s});
}

TEST_CASE("an update fuses at most four tile loops") {
    // Seed 246: a batched matrix product read by two consumers, its update
    // tiled SSRSRS and six outer tile loops fused; Halide 14 recursed
    // without end in partition_loops while compiling it (a segfault).
    ImageParam A(Float(32), 3, "A"), B(Float(32), 3, "B");
    A.dim(0).set_estimate(0, 21).dim(1).set_estimate(0, 21).dim(2).set_estimate(0, 4);
    B.dim(0).set_estimate(0, 111).dim(1).set_estimate(0, 21).dim(2).set_estimate(0, 4);
    Var x("x"), y("y"), c("c");
    RDom k(0, 21, "k");
    Func mm("mm"), total("total");
    mm(x, y, c) = 0.f;
    mm(x, y, c) += A(k, y, c) * B(x, k, c);
    total(x, y) = mm(x, y, 0) + mm(x, y, 1) + mm(x, y, 2) + mm(x, y, 3);
    total.set_estimate(x, 0, 111).set_estimate(y, 0, 21);
    PipelineDAG dag({total.function()}, 2);

    State tiled(dag);
    tiled.add(std::make_shared<ComputeLocationStep>("mm", Location{}));
    tiled.add(std::make_shared<SplitStep>("mm", 1, "x", std::vector<int64_t>{37}));
    tiled.add(std::make_shared<SplitStep>("mm", 1, "y", std::vector<int64_t>{3}));
    tiled.add(std::make_shared<SplitStep>("mm", 1, "c", std::vector<int64_t>{1}));
    tiled.add(std::make_shared<ReorderStep>("mm", 1, std::vector<std::string>{"c_0", "y_0", "x_0", "c_1", "y_1", "x_1", "k$x"}));
    auto fused = [&](int stage, std::vector<std::string> loops) {
        State s = tiled;
        s.add(std::make_shared<FuseStep>("mm", stage, std::move(loops)));
        return s;
    };
    // A program from a log that fuses more still replays as it was.
    CHECK_NOTHROW(fused(1, {"c_0", "y_0", "x_0", "c_1", "y_1"}).replay());

    // Asked for far more parallelism than the loops have, the annotator and
    // the parallel-fuse mutation fuse as many leading loops as they may: at
    // most four in an update, and no two pieces of one dim (repeats_a_dim),
    // so here one per dim of the update's three.
    AnnotationOptions ao;
    ao.parallelism = 1 << 20;
    RandomAnnotator annotator(dag, ansor_test::cpu_target(), ao);
    Mutator mutator(annotator, ao);
    std::mt19937_64 rng(11);
    size_t widest_update_fuse = 0;
    auto check_program = [&](const State &program) {
        CHECK_NOTHROW(program.replay());
        for (const FuncSteps &g : program.groups()) {
            for (const StepPtr &step : g.steps) {
                const auto *fuse = step->as<FuseStep>();
                if (!fuse || fuse->stage == 0) continue;
                CHECK(fuse->loops.size() <= kMaxFusedUpdateLoops);
                widest_update_fuse = std::max(widest_update_fuse, fuse->loops.size());
            }
        }
    };
    for (const State &sketch : generate_sketches({dag, ansor_test::cpu_target()})) {
        for (int i = 0; i < 10; i++) {
            State program = ansor_test::annotate_fitting(annotator, sketch, rng);
            check_program(program);
            for (int m = 0; m < 4; m++) {
                if (auto child = mutator.mutate(program, rng)) program = *child;
                check_program(program);
            }
        }
    }
    CHECK(widest_update_fuse == 3);
}
