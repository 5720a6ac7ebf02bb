// random_pipeline: the pipelines of build_random_pipeline_on() as a Halide
// generator, e.g.  -g random_pipeline seed=7 stages=12 max_size=512
// (docs/random_pipelines.md). The signature is the same for every seed:
//   input_a, input_b: float32 3-D; input_c: uint8 2-D (estimates per seed)
//   output: float32 3-D; output2: float32 2-D.
#include "random_pipeline.h"

using namespace Halide;

namespace {

class RandomPipelineGenerator : public Generator<RandomPipelineGenerator> {
public:
    GeneratorParam<uint64_t> seed{"seed", 0};
    GeneratorParam<int> stages{"stages", 12, 1, 64};
    GeneratorParam<int> max_size{"max_size", 1024, 16, 8192};
    GeneratorParam<int> min_size{"min_size", 16, 16, 8192};

    Input<Buffer<float>> input_a{"input_a", 3};
    Input<Buffer<float>> input_b{"input_b", 3};
    Input<Buffer<uint8_t>> input_c{"input_c", 2};
    Output<Buffer<float>> output{"output", 3};
    Output<Buffer<float>> output2{"output2", 2};

    void generate() {
        random_pipeline::RandomPipelineSpec spec{seed, stages, max_size, min_size};
        std::vector<std::vector<int>> extents = random_pipeline::random_input_extents(spec);
        input_a.set_estimates(random_region(extents[0]));
        input_b.set_estimates(random_region(extents[1]));
        input_c.set_estimates(random_region(extents[2]));
        random_pipeline::RandomPipelineFuncs funcs =
            random_pipeline::build_random_pipeline_on(spec, {Func(input_a), Func(input_b), Func(input_c)});
        // The builder's Funcs themselves (named output and output2, estimates set).
        output = funcs.outputs[0];
        output2 = funcs.outputs[1];
    }

private:
    static Region random_region(const std::vector<int> &extents) {
        Region r;
        for (int e : extents) r.push_back(Range(0, e));
        return r;
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(RandomPipelineGenerator, random_pipeline)
