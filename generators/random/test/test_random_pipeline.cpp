// The builder: deterministic, different per seed, the same through the
// generator, every kind drawn, every pipeline well formed and compilable.
#include "network/generator_pipeline.h"
#include "random_pipeline.h"
#include "util/target.h"

#include <Halide.h>
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

using namespace random_pipeline;

namespace {

const Halide::Target cpu(ansor::project_cpu_target());

std::string description(const RandomPipeline &p) { return p.summary() + describe_definitions(p.outputs()); }

}  // namespace

TEST_CASE("random pipelines: the same seed gives the same pipeline, other seeds others") {
    std::set<std::string> seen;
    for (uint64_t seed = 0; seed < 40; seed++) {
        std::string first = description(build_random_pipeline(seed, 16));
        CHECK(first == description(build_random_pipeline(seed, 16)));
        seen.insert(first);
    }
    CHECK(seen.size() == 40);
    // Seeds far apart too (the seed is a full uint64).
    CHECK(description(build_random_pipeline(~0ull, 8)) != description(build_random_pipeline(1ull << 63, 8)));
}

TEST_CASE("random pipelines: the generator builds the in-process pipeline") {
    for (uint64_t seed : {7ull, 12345ull}) {
        CAPTURE(seed);
        ansor::GeneratorPipeline g = ansor::build_generator_pipeline(
            "random_pipeline", {{"seed", std::to_string(seed)}, {"stages", "12"}, {"max_size", "512"}}, cpu);
        RandomPipeline p = build_random_pipeline(seed, 12, 512);
        REQUIRE(g.pipeline.outputs().size() == 2);
        CHECK(g.pipeline.outputs()[0].name() == "output");
        CHECK(g.pipeline.outputs()[1].name() == "output2");
        CHECK(describe_definitions(g.pipeline.outputs()) == describe_definitions(p.outputs()));
    }
    // The generator's defaults: seed 0, 12 stages, max_size 1024.
    ansor::GeneratorPipeline g = ansor::build_generator_pipeline("random_pipeline", {}, cpu);
    CHECK(describe_definitions(g.pipeline.outputs()) == describe_definitions(build_random_pipeline(0, 12).outputs()));
}

TEST_CASE("random pipelines: a spec out of range is refused by name") {
    CHECK_THROWS_WITH_AS(build_random_pipeline(1, 0), doctest::Contains("stages=0"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(build_random_pipeline(1, 65), doctest::Contains("stages=65"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(build_random_pipeline(1, 4, 8), doctest::Contains("max_size=8"), std::invalid_argument);
    CHECK_THROWS_AS(ansor::build_generator_pipeline("random_pipeline", {{"stages", "0"}}, cpu),
                    std::invalid_argument);
}

TEST_CASE("random pipelines: min_size and max_size above 1024 draw larger inputs; 1024 and below are unchanged") {
    auto points = [](const std::vector<int> &e) {
        int64_t p = 1;
        for (int v : e) p *= v;
        return p;
    };
    CHECK(size_scale(RandomPipelineSpec{0, 4, 512}) == 1);
    CHECK(size_scale(RandomPipelineSpec{0, 4, 1024}) == 1);
    CHECK(size_scale(RandomPipelineSpec{0, 4, 2048}) == 2);
    CHECK(size_scale(RandomPipelineSpec{0, 4, 8192}) == 4);
    int64_t largest_a = 0;
    for (uint64_t seed = 0; seed < 50; seed++) {
        CAPTURE(seed);
        std::vector<std::vector<int>> e = random_input_extents(RandomPipelineSpec{seed, 8, 4096, 512});
        CHECK(points(e[0]) <= (int64_t)(8 << 20));
        CHECK(points(e[1]) <= (int64_t)(8 << 20));
        // input_c is 2-D, so its draws in [512, 4096] always fit 16M points.
        CHECK(e[2][0] >= 512);
        CHECK(e[2][1] >= 512);
        CHECK(e[2][0] <= 4096);
        CHECK(points(e[2]) <= (int64_t)(16 << 20));
        largest_a = std::max(largest_a, points(e[0]));
        // The default min_size at max_size 1024 draws what it always drew.
        CHECK(random_input_extents(RandomPipelineSpec{seed, 8, 1024}) ==
              random_input_extents(RandomPipelineSpec{seed, 8, 1024, 16}));
    }
    CHECK(largest_a > (int64_t)(2 << 20));  // beyond what max_size 1024 allows
    CHECK_THROWS_WITH_AS(build_random_pipeline(RandomPipelineSpec{1, 4, 1024, 2048}), doctest::Contains("min_size=2048"),
                         std::invalid_argument);
    // The generator's min_size reaches the same spec.
    ansor::GeneratorPipeline g = ansor::build_generator_pipeline(
        "random_pipeline", {{"seed", "7"}, {"stages", "6"}, {"max_size", "2048"}, {"min_size", "256"}}, cpu);
    CHECK(describe_definitions(g.pipeline.outputs()) ==
          describe_definitions(build_random_pipeline(RandomPipelineSpec{7, 6, 2048, 256}).outputs()));
}

TEST_CASE("random pipelines: seeds 0..199 draw every kind and feature") {
    std::vector<int> count((int)StageKind::Count, 0);
    int updates = 0, tuples = 0, boundaries = 0;
    for (uint64_t seed = 0; seed < 200; seed++) {
        RandomPipeline p = build_random_pipeline(seed, 8 + (int)(seed % 25));
        CHECK(p.funcs.stages.size() == 8 + seed % 25);
        for (const StageRecord &r : p.funcs.stages) {
            count[(int)r.kind]++;
            updates += r.has_update;
            tuples += r.tuple_valued;
            boundaries += r.boundary;
        }
    }
    for (int k = 0; k < (int)StageKind::Count; k++) {
        CAPTURE(kind_name((StageKind)k));
        CHECK(count[k] > 0);
    }
    CHECK(updates > 0);
    CHECK(tuples > 0);
    CHECK(boundaries > 0);
}

TEST_CASE("random pipelines: seeds 0..199 build with the fixed signature; a subset compiles") {
    for (uint64_t seed = 0; seed < 200; seed++) {
        CAPTURE(seed);
        int stages = 1 + (int)(seed % 40);
        RandomPipeline p = build_random_pipeline(seed, stages);
        REQUIRE(p.outputs().size() == 2);
        CHECK(p.outputs()[0].dimensions() == 3);
        CHECK(p.outputs()[1].dimensions() == 2);
        for (const Halide::Func &out : p.outputs()) {
            CHECK(out.output_types() == std::vector<Halide::Type>{Halide::Float(32)});
            CHECK(out.function().schedule().estimates().size() == (size_t)out.dimensions());
        }
        for (const auto &in : p.inputs) {
            for (int d = 0; d < in.dimensions(); d++) {
                CHECK(in.parameter().extent_constraint_estimate(d).defined());
            }
        }
        CHECK(std::count(p.funcs.input_used.begin(), p.funcs.input_used.end(), true) >= 1);
        if (seed % 20 == 0) {
            compute_all_at_root(p.outputs());
            Halide::Pipeline(p.outputs()).compile_jit(cpu);
        }
    }
}
