// A cache-write intermediate computed inside its output's tiles gets storage
// bounded by the tile (constant strides keep GEMM accumulators in registers),
// and the schedule still computes the right result at any output size.
#include "state/state.h"
#include "state/steps.h"
#include "test_pipelines.h"
#include "util/target.h"

#include <doctest/doctest.h>

#include <map>

using namespace ansor;
using namespace Halide;

namespace {

const Target cpu(ansor::project_cpu_target());

// The output's update tiled 16x16 (GuardWithIf tails), the intermediate at
// the tile, and the intermediate's own x split for a vector.
State cache_write_at_tile(const PipelineDAG &dag, const std::string &mm) {
    const std::string intm = mm + "_intm";
    State s(dag);
    s.add(std::make_shared<CacheWriteStep>(mm));
    s.add(std::make_shared<SplitStep>(mm, 1, "y", std::vector<int64_t>{16}));
    s.add(std::make_shared<SplitStep>(mm, 1, "x", std::vector<int64_t>{16}));
    s.add(std::make_shared<ReorderStep>(mm, 1, std::vector<std::string>{"y_0", "x_0", "y_1", "x_1"}));
    s.add(std::make_shared<ComputeLocationStep>(intm, Location{LocationKind::At, mm, 1, "x_0"}));
    s.add(std::make_shared<SplitStep>(intm, 1, "x", std::vector<int64_t>{8}));
    s.add(std::make_shared<AnnotateStep>(intm, 1, "x_1", Annotation::Vectorize));
    return s;
}

}  // namespace

TEST_CASE("a cache write inside the output's tiles has its storage bounded by the tile") {
    ImageParam A(Float(32), 2, "A"), B(Float(32), 2, "B");
    Func C = ansor_test::matmul(A, B, 64);
    C.set_estimate(C.args()[0], 0, 64).set_estimate(C.args()[1], 0, 64);
    PipelineDAG dag({C.function()}, 2);
    const std::string mm = C.name(), intm = mm + "_intm";
    State s = cache_write_at_tile(dag, mm);

    std::map<std::string, int64_t> bounds;
    for (const Directive &d : s.lower()) {
        if (d.kind != Directive::Kind::BoundStorage) continue;
        CHECK(d.func == intm);
        bounds[d.loops[0].name] = d.factor;
    }
    CHECK(bounds == std::map<std::string, int64_t>{{"x", 16}, {"y", 16}});
    CHECK(s.source().find(".bound_storage(x, 16);") != std::string::npos);

    // Applied for real and run at sizes that are not multiples of the tile
    // (the tail tiles hold less than the bound): still the exact product.
    const int K = 64;
    for (auto [width, height] : {std::pair{64, 64}, std::pair{37, 50}, std::pair{5, 3}}) {
        CAPTURE(width);
        CAPTURE(height);
        ImageParam A2(Float(32), 2, "A"), B2(Float(32), 2, "B");
        Func C2 = ansor_test::matmul(A2, B2, K);
        C2.set_estimate(C2.args()[0], 0, 64).set_estimate(C2.args()[1], 0, 64);
        PipelineDAG dag2({C2.function()}, 2);
        State s2 = cache_write_at_tile(dag2, C2.name());
        s2.apply(dag2.env());
        Buffer<float> a(K, height), b(width, K);
        for (int y = 0; y < height; y++)
            for (int k = 0; k < K; k++) a(k, y) = (float)((k * 7 + y * 3) % 11) - 5.f;
        for (int k = 0; k < K; k++)
            for (int x = 0; x < width; x++) b(x, k) = (float)((x * 5 + k) % 13) - 6.f;
        A2.set(a);
        B2.set(b);
        Buffer<float> out = Pipeline(C2).realize({width, height}, cpu);
        int wrong = 0;
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                float want = 0;
                for (int k = 0; k < K; k++) want += a(k, y) * b(x, k);
                wrong += out(x, y) != want;  // small integers: exact in float
            }
        }
        CHECK(wrong == 0);
    }
}
