// Random pipelines run: every Func at root, on random inputs, at the
// estimated sizes; float outputs hold no NaN or infinity.
#include "random_pipeline.h"
#include "rng.h"
#include "util/target.h"

#include <Halide.h>
#include <doctest/doctest.h>

#include <cmath>

using namespace random_pipeline;
using namespace Halide;

namespace {

const Target cpu(ansor::project_cpu_target());

Buffer<> random_input(const ImageParam &in, const std::vector<int> &extents, uint64_t seed) {
    Buffer<> b(in.type(), extents);
    Rng rng(seed);
    if (in.type() == Float(32)) {
        Buffer<float> f(b);
        f.for_each_value([&](float &v) { v = (float)(rng.unit() * 2 - 1); });
    } else {
        Buffer<uint8_t> u(b);
        u.for_each_value([&](uint8_t &v) { v = (uint8_t)rng.range(0, 255); });
    }
    return b;
}

bool all_finite(const Buffer<float> &b) {
    bool ok = true;
    b.for_each_value([&](float v) { ok = ok && std::isfinite(v); });
    return ok;
}

}  // namespace

TEST_CASE("random pipelines: seeds 0..29 run with every Func at root") {
    for (uint64_t seed = 0; seed < 30; seed++) {
        CAPTURE(seed);
        RandomPipelineSpec spec{seed, 1 + (int)(seed % 16), 96};
        RandomPipeline p = build_random_pipeline(spec);
        CAPTURE(p.summary());
        std::vector<std::vector<int>> extents = random_input_extents(spec);
        for (int i = 0; i < kInputs; i++) p.inputs[i].set(random_input(p.inputs[i], extents[i], seed * 3 + i));
        compute_all_at_root(p.outputs());
        Pipeline pipeline(p.outputs());
        Buffer<float> out(p.funcs.output_extents[0]), out2(p.funcs.output_extents[1]);
        pipeline.realize({out, out2}, cpu);
        CHECK(all_finite(out));
        CHECK(all_finite(out2));
    }
}
