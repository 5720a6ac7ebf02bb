// A Func whose buffer at root would be larger than the last-level cache
// (src/annotate/root_buffers.{h,cpp}): the annotator and the mutations place
// it inline or in a consumer's loops where they can.
#include "annotate/random_annotator.h"
#include "annotate/root_buffers.h"
#include "search/mutations.h"
#include "search/program_sampler.h"
#include "sketch/sketch_generator.h"
#include "state/state.h"
#include "measure_test_support.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

using namespace ansor;
using namespace Halide;

namespace {

// An upsampling Func (not strictly inlinable: it reads its input at x / 2)
// read by a vertical stencil, over a 1024 x 1024 float image.
ansor_test::Pipe upsample_then_stencil() {
    ImageParam in(Float(32), 2, "rin");
    in.dim(0).set_estimate(0, 512).dim(1).set_estimate(0, 1024);
    Var x("x"), y("y");
    Func up("rup"), out("rout");
    up(x, y) = in(x / 2, y) + in((x + 1) / 2, y);
    out(x, y) = up(x, y) + up(x, y + 1);
    out.set_estimate(x, 0, 1024).set_estimate(y, 0, 1023);
    return {{out}};
}

// How many of `programs` drawn programs and their compute-location mutants
// compute `func` at root.
int at_root(const PipelineDAG &dag, const std::string &func, int64_t cache_bytes, int programs) {
    AnnotationOptions ao;
    ao.parallelism = 2;
    ao.last_level_cache_bytes = cache_bytes;
    RandomAnnotator annotator(dag, ansor_test::cpu_target(), ao);
    ProgramSampler sampler(generate_sketches({dag, ansor_test::cpu_target()}), annotator);
    Mutator mutator(annotator, ao);
    std::mt19937_64 rng(5);
    int root = 0;
    auto count = [&](const State &program) {
        if (program.replay().func(func).location.kind == LocationKind::Root) root++;
    };
    for (int i = 0; i < programs; i++) {
        std::optional<State> program = sampler.sample(rng);
        REQUIRE(program);
        count(*program);
        for (int k = 0; k < 3; k++) {
            std::optional<State> child = mutator.mutate(*program, MutationKind::ComputeLocation, rng);
            if (child) count(*child);
        }
    }
    return root;
}

}  // namespace

TEST_CASE("root buffer bytes: the Func's region at root times its value's bytes") {
    PipelineDAG dag(upsample_then_stencil().functions(), 2);
    const std::string up = ansor_test::resolve(dag, "rup");
    State program(dag);
    program.add(std::make_shared<ComputeLocationStep>(up, Location{LocationKind::Inline, "", 0, ""}));
    // Measured at root wherever the Func is now: 1024 columns, 1024 rows
    // (the stencil reads one row past its 1023).
    CHECK(root_buffer_bytes(program.replay(), up) == 1024 * 1024 * 4);
    CHECK(root_buffer_exceeds_cache(program.replay(), up, 1024 * 1024));
    CHECK_FALSE(root_buffer_exceeds_cache(program.replay(), up, 8 * 1024 * 1024));
    CHECK_FALSE(root_buffer_exceeds_cache(program.replay(), up, 0));
}

TEST_CASE("a Func whose root buffer the cache cannot hold is drawn inline or at a consumer's loop") {
    PipelineDAG dag(upsample_then_stencil().functions(), 2);
    const std::string up = ansor_test::resolve(dag, "rup");
    // A cache that holds the 4 MB buffer: root is one of the draws.
    CHECK(at_root(dag, up, 64 * 1024 * 1024, 40) > 0);
    CHECK(at_root(dag, up, 0, 40) > 0);
    // A 1 MB cache: never at root, drawn or mutated.
    CHECK(at_root(dag, up, 1024 * 1024, 40) == 0);
}
