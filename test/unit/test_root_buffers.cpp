// The size of a Func's buffer at root (src/annotate/root_buffers.{h,cpp}).
#include "annotate/random_annotator.h"
#include "annotate/root_buffers.h"
#include "dag/root_region_bytes.h"
#include "search/mutations.h"
#include "search/program_sampler.h"
#include "sketch/sketch_generator.h"
#include "state/state.h"
#include "state/steps.h"
#include "measure_test_support.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

using namespace ansor;
using namespace Halide;

TEST_CASE("root buffer bytes: the Func's region at root times its value's bytes, wherever it is computed") {
    // An upsampling Func read by a vertical stencil, over 1024 x 1023 floats.
    ImageParam in(Float(32), 2, "rin");
    in.dim(0).set_estimate(0, 512).dim(1).set_estimate(0, 1024);
    Var x("x"), y("y");
    Func up("rup"), out("rout");
    up(x, y) = in(x / 2, y) + in((x + 1) / 2, y);
    out(x, y) = up(x, y) + up(x, y + 1);
    out.set_estimate(x, 0, 1024).set_estimate(y, 0, 1023);
    PipelineDAG dag(ansor_test::Pipe{{out}}.functions(), 2);
    const std::string name = ansor_test::resolve(dag, "rup");

    // 1024 columns, 1024 rows (the stencil reads one row past its 1023).
    State at_root(dag);
    CHECK(root_buffer_bytes(at_root.replay(), name) == 1024 * 1024 * 4);
    State inlined(dag);
    inlined.add(std::make_shared<ComputeLocationStep>(name, Location{LocationKind::Inline, "", 0, ""}));
    CHECK(root_buffer_bytes(inlined.replay(), name) == 1024 * 1024 * 4);
}

TEST_CASE("root buffer bytes: a Tuple's values count whole") {
    ImageParam in(Float(32), 1, "tin");
    in.dim(0).set_estimate(0, 100);
    Var x("x");
    Func pair("tpair"), out("tout");
    pair(x) = Tuple(in(x), cast<uint8_t>(in(x)));
    out(x) = pair(x)[0] + cast<float>(pair(x)[1]);
    out.set_estimate(x, 0, 100);
    PipelineDAG dag(ansor_test::Pipe{{out}}.functions(), 2);
    CHECK(root_buffer_bytes(State(dag).replay(), ansor_test::resolve(dag, "tpair")) == 100 * 5);
}

namespace {

// An upsampling Func read by a horizontal stencil, `w` columns of floats by
// 2100 rows, and how often drawn programs and their compute-location mutants
// put it at root.
struct RootDraws {
    int placed = 0;   // programs in which the annotator or a mutation chose its place
    int at_root = 0;  // of those, at root
    int inlined = 0;  // of those, inline
    bool mapped_each_run = false;
};

RootDraws draws_of_upsample_at_root(int w) {
    ImageParam in(Float(32), 2, "min");
    in.dim(0).set_estimate(0, w / 2 + 1).dim(1).set_estimate(0, 2100);
    Var x("x"), y("y");
    Func up("mup"), out("mout");
    up(x, y) = in(x / 2, y) * in((x + 1) / 2, y) + 1.f;
    out(x, y) = up(x, y) - up(x + 1, y);
    out.set_estimate(x, 0, w - 1).set_estimate(y, 0, 2100);
    PipelineDAG dag(ansor_test::Pipe{{out}}.functions(), 2);
    const std::string name = ansor_test::resolve(dag, "mup");
    RootDraws d;
    d.mapped_each_run = root_buffer_mapped_each_run(State(dag).replay(), name);

    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, ansor_test::cpu_target(), ao);
    ProgramSampler sampler(generate_sketches({dag, ansor_test::cpu_target()}), annotator);
    Mutator mutator(annotator, ao);
    std::mt19937_64 rng(5);
    auto count = [&](const State &program) {
        const LocationKind kind = program.replay().func(name).location.kind;
        d.placed++;
        d.at_root += kind == LocationKind::Root;
        d.inlined += kind == LocationKind::Inline;
    };
    for (int i = 0; i < 40; i++) {
        std::optional<State> program = sampler.sample(rng);
        if (!program) continue;
        count(*program);
        for (int k = 0; k < 3; k++) {
            std::optional<State> child = mutator.mutate(*program, MutationKind::ComputeLocation, rng);
            if (child) count(*child);
        }
    }
    return d;
}

}  // namespace

TEST_CASE("recompute factor: the points a Func computes where it is, over its points at root") {
    // A vertical two-row stencil's producer, computed per row of the
    // consumer, computes two rows for each.
    ImageParam in(Float(32), 2, "vin");
    in.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, 101);
    Var x("x"), y("y");
    Func f("vf"), out("vout");
    f(x, y) = in(x, y) * 2.f;
    out(x, y) = f(x, y) + f(x, y + 1);
    out.set_estimate(x, 0, 64).set_estimate(y, 0, 100);
    PipelineDAG dag(ansor_test::Pipe{{out}}.functions(), 2);
    const std::string name = ansor_test::resolve(dag, "vf"), consumer = ansor_test::resolve(dag, "vout");
    LoopNest at_root = State(dag).replay();
    CHECK(recompute_factor(at_root, name) == doctest::Approx(1.0));
    LoopNest per_row = at_root;
    ComputeLocationStep(name, Location{LocationKind::At, consumer, 0, "y"}).replay(per_row);
    CHECK(recompute_factor(per_row, name) == doctest::Approx(200.0 / 101.0));
    LoopNest per_point = at_root;
    ComputeLocationStep(name, Location{LocationKind::At, consumer, 0, "x"}).replay(per_point);
    CHECK(recompute_factor(per_point, name) == doctest::Approx(2 * 6400.0 / 6464.0));
}

TEST_CASE("a Func whose buffer at root the allocator maps afresh each run is drawn inside its consumer") {
    // 2048 columns: 17 MB at root, reused by the allocator between runs;
    // 4096 columns: 34 MB, past glibc's 32 MiB. Computed per row of its
    // consumer it computes each point once.
    const RootDraws small = draws_of_upsample_at_root(2048);
    const RootDraws large = draws_of_upsample_at_root(4096);
    CHECK_FALSE(small.mapped_each_run);
    CHECK(large.mapped_each_run);
    CHECK(small.placed > 40);
    CHECK(large.placed > 40);
    CHECK(small.at_root > 0);
    CHECK(small.inlined > 0);
    CHECK(large.at_root == 0);
    CHECK(large.inlined == 0);
}

TEST_CASE("a scan per strip whose buffer there the allocator maps afresh each iteration does not fit") {
    // A column scan of 4096 x 4096 floats (64 MiB at root) read by its
    // consumer, and a modelled Func as large beside it.
    ImageParam in(Float(32), 2, "bin");
    in.dim(0).set_estimate(0, 4096).dim(1).set_estimate(0, 4096);
    Var x("x"), y("y");
    Func scan("bscan"), f("bf"), out("bout");
    RDom r(1, 4095, "r");
    scan(x, y) = in(x, y);
    scan(x, r) = 0.5f * scan(x, r - 1) + scan(x, r);
    f(x, y) = in(x, y) * 2.f;
    out(x, y) = scan(x, y) + f(x, y);
    out.set_estimate(x, 0, 4096).set_estimate(y, 0, 4096);
    PipelineDAG dag(ansor_test::Pipe{{out}}.functions(), 2);
    const std::string s_name = ansor_test::resolve(dag, "bscan"), f_name = ansor_test::resolve(dag, "bf"),
                      consumer = ansor_test::resolve(dag, "bout");
    REQUIRE_FALSE(dag.node(*dag.index_of(s_name)).modelled);
    CHECK(root_region_outgrows_reused_heap_blocks(dag.node(*dag.index_of(s_name))));

    // Both computed per strip of `columns` columns of the consumer.
    auto per_strip = [&](int64_t columns, const std::string &func) {
        State s(dag);
        s.add(std::make_shared<SplitStep>(consumer, 0, "x", std::vector<int64_t>{columns}));
        s.add(std::make_shared<ReorderStep>(consumer, 0, std::vector<std::string>{"x_0", "y", "x_1"}));
        s.add(std::make_shared<ComputeLocationStep>(func, Location{LocationKind::At, consumer, 0, "x_0"}));
        return s;
    };
    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, ansor_test::cpu_target(), ao);
    // Strips of 3000 columns: 47 MiB of the scan at each of two iterations.
    const State wide = per_strip(3000, s_name);
    CHECK_THROWS_AS(check_unmodelled_buffers_inside_loops(wide.replay()), InvalidState);
    CHECK(annotator.misfit(wide).find("'" + s_name + "'") != std::string::npos);
    // Strips of 1000 columns (16 MiB each), or at root: it fits. So does
    // the modelled Func in wide strips: the cost model weighs it.
    for (const State &fits : {per_strip(1000, s_name), State(dag), per_strip(3000, f_name)}) {
        CHECK_NOTHROW(check_unmodelled_buffers_inside_loops(fits.replay()));
        CHECK(annotator.misfit(fits).empty());
    }
}
