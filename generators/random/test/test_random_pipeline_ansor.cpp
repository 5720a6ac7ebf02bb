// The autoscheduler's analysis, sketches and random programs on random
// pipelines: nothing but a documented UserError may come out.
#include "random_pipeline.h"

#include "annotate/random_annotator.h"
#include "measure/pipeline_runner.h"
#include "search/program_sampler.h"
#include "sketch/sketch_generator.h"
#include "util/errors.h"
#include "util/target.h"

#include <Halide.h>
#include <doctest/doctest.h>

#include <random>

using namespace random_pipeline;

namespace {

const Halide::Target cpu(ansor::project_cpu_target());

}  // namespace

TEST_CASE("random pipelines: seeds 0..199 go through analysis, sketches and sampling") {
    int user_errors = 0;
    for (uint64_t seed = 0; seed < 200; seed++) {
        CAPTURE(seed);
        RandomPipeline p = build_random_pipeline(seed, 1 + (int)(seed % 40));
        CAPTURE(p.summary());
        try {
            ansor::PipelineDAG dag(p.output_functions(), 2);
            std::vector<ansor::State> sketches = ansor::generate_sketches({dag, cpu});
            REQUIRE(!sketches.empty());
            ansor::AnnotationOptions options;
            options.parallelism = 2;
            ansor::RandomAnnotator annotator(dag, cpu, options);
            ansor::ProgramSampler sampler(sketches, annotator);
            std::mt19937_64 rng(seed);
            for (int i = 0; i < 8; i++) {
                std::optional<ansor::State> program = sampler.sample(rng);
                REQUIRE(program.has_value());
                program->replay();
            }
        } catch (const ansor::UserError &e) {
            user_errors++;
            MESSAGE("seed " << seed << ": UserError: " << e.what());
        }
    }
    CHECK(user_errors == 0);  // none is expected of these pipelines (estimates are set everywhere)
}

TEST_CASE("random pipelines: sampled programs compute what the pipeline computes at root") {
    for (uint64_t seed = 0; seed < 4; seed++) {
        CAPTURE(seed);
        RandomPipeline ref = build_random_pipeline(seed, 3 + (int)seed, 96);
        ansor::PipelineDAG ref_dag(ref.output_functions(), 2);
        ansor::PipelineRunner reference(ref_dag, nullptr, cpu);
        reference.compile();
        reference.run();

        RandomPipeline p = build_random_pipeline(seed, 3 + (int)seed, 96);
        CAPTURE(p.summary());
        ansor::PipelineDAG dag(p.output_functions(), 2);
        ansor::AnnotationOptions options;
        options.parallelism = 2;
        ansor::RandomAnnotator annotator(dag, cpu, options);
        ansor::ProgramSampler sampler(ansor::generate_sketches({dag, cpu}), annotator);
        std::mt19937_64 rng(seed);
        std::optional<ansor::State> program = sampler.sample(rng);
        REQUIRE(program.has_value());
        ansor::PipelineRunner scheduled(dag, &*program, cpu);
        scheduled.compile();
        scheduled.run();
        REQUIRE(scheduled.outputs().size() == reference.outputs().size());
        for (size_t i = 0; i < reference.outputs().size(); i++) {
            CHECK(ansor::max_relative_error(scheduled.outputs()[i], reference.outputs()[i].data()) <= 1e-4);
        }
    }
}
