// Program features checked against values worked out by hand on small loop
// nests (docs/features.md has the definitions).
#include "annotate/random_annotator.h"
#include "features/program_features.h"
#include "sketch/sketch_generator.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <sstream>

using namespace ansor;
using namespace ansor::features;

namespace {

Halide::Target cpu() {
    return Halide::Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");
}

double lg(double x) { return std::log2(1.0 + x); }

float col(const StageFeatures &f, const std::string &name) {
    int i = feature_index(name);
    REQUIRE_MESSAGE(i >= 0, "no feature named " << name);
    return f.values[i];
}

float buf(const StageFeatures &f, int b, int column) { return f.values[kBufferBegin + b * kPerBuffer + column]; }

const StageFeatures &find(const LoopNest &m, const std::vector<StageFeatures> &fs, const std::string &func, int stage) {
    for (const auto &f : fs) {
        if (m.funcs()[f.func].name == func && f.stage == stage) return f;
    }
    FAIL("no features for " << func << " stage " << stage);
    return fs.front();
}

std::string dump(const StageFeatures &f) {
    std::ostringstream s;
    const auto &names = feature_names();
    for (size_t i = 0; i < names.size(); i++) {
        if (f.values[i] != 0) s << names[i] << "=" << f.values[i] << " ";
    }
    return s.str();
}

#define CHECK_F(actual, expected) CHECK((actual) == doctest::Approx(expected).epsilon(1e-5))

// ImageParams reach a pipeline through wrapper Funcs (A_im); the sketch
// rules always inline them, and so do the hand-made states here.
void inline_input_wrappers(const PipelineDAG &dag, State &s) {
    for (const Node &n : dag.nodes()) {
        bool wrapper = n.name.find("_im") != std::string::npos && n.stages.size() == 1;
        for (const auto &c : n.stages[0].calls) wrapper = wrapper && c.callee_is_input;
        if (wrapper) s.add(std::make_shared<ComputeLocationStep>(n.name, Location{LocationKind::Inline, "", 0, ""}));
    }
}

// The 64^3 matmul update tiled 8x8: y_0 x_0 k y_1 x_1, x_1 vectorized,
// y_0 parallel, auto-unroll 16 (which unrolls y_1).
State tiled_matmul(const PipelineDAG &dag, const std::string &mm) {
    State s(dag);
    inline_input_wrappers(dag, s);
    s.add(std::make_shared<SplitStep>(mm, 1, "y", std::vector<int64_t>{8}));
    s.add(std::make_shared<SplitStep>(mm, 1, "x", std::vector<int64_t>{8}));
    s.add(std::make_shared<ReorderStep>(mm, 1, std::vector<std::string>{"y_0", "x_0", "k$x", "y_1", "x_1"}));
    s.add(std::make_shared<AnnotateStep>(mm, 1, "x_1", Annotation::Vectorize));
    s.add(std::make_shared<AnnotateStep>(mm, 1, "y_0", Annotation::Parallel));
    s.add(std::make_shared<AutoUnrollStep>(mm, 1, 16));
    return s;
}

}  // namespace

TEST_CASE("features: one name per column") {
    const auto &names = feature_names();
    CHECK(names.size() == (size_t)kCount);
    CHECK(kCount == 164);
    CHECK(std::set<std::string>(names.begin(), names.end()).size() == names.size());
    CHECK(feature_index("B0_bytes") == kBufferBegin + kBytes);
    CHECK(feature_index("vec_pos_none") == kVecBegin + kPosNone);
    CHECK(feature_index("arith_intensity_curve_9") == kCount - 1);
    auto p = ansor_test::make_matmul(64);
    PipelineDAG dag(p.functions(), 2);
    LoopNest m = tiled_matmul(dag, ansor_test::resolve(dag, "matmul")).replay();
    for (const auto &f : extract_features(m)) CHECK(f.values.size() == names.size());
}

TEST_CASE("features: a 64^3 matmul tiled 8x8 with an 8-wide vector loop, by hand") {
    auto p = ansor_test::make_matmul(64);
    PipelineDAG dag(p.functions(), 2);
    const std::string mm = ansor_test::resolve(dag, "matmul");
    LoopNest m = tiled_matmul(dag, mm).replay();
    FeatureExtractor fx(dag);
    auto fs = fx.extract(m);
    REQUIRE(fs.size() == 2);  // the pure definition and the update

    const StageFeatures &u = find(m, fs, mm, 1);
    CAPTURE(dump(u));
    const double N = 8 * 8 * 64 * 8 * 8;  // 2^18 iterations
    // Counts that grow with the problem are per 1024 points of the
    // pipeline's largest data: A and B, 2 x 64 x 64 points.
    const double W = 1024.0 / (2 * 64 * 64);
    // Arithmetic: matmul(x, y) + A(k, y) * B(x, k) is one float multiply-add.
    CHECK_F(col(u, "float_mad"), lg(N * W));
    for (const char *zero : {"float_addsub", "float_mul", "int_addsub", "int_mad", "float_cmp", "select_op", "bool_op"}) {
        CHECK(col(u, zero) == 0);
    }
    // Annotations.
    CHECK(col(u, "vec_num") == 1);
    CHECK_F(col(u, "vec_prod"), lg(8));
    CHECK_F(col(u, "vec_len"), lg(8));
    CHECK(col(u, "vec_pos_inner_spatial") == 1);
    CHECK(col(u, "vec_pos_none") == 0);
    CHECK(col(u, "unroll_num") == 1);  // auto-unroll 16 takes y_1 (8) but not k (64 more)
    CHECK_F(col(u, "unroll_len"), lg(8));
    CHECK(col(u, "unroll_pos_outer_spatial") == 1);
    CHECK(col(u, "parallel_num") == 1);
    CHECK_F(col(u, "parallel_prod"), lg(8));
    CHECK(col(u, "parallel_pos_outer_spatial") == 1);
    for (const char *gpu : {"is_gpu", "blockIdx_x_len", "threadIdx_x_len", "vthread_len"}) CHECK(col(u, gpu) == 0);

    // Buffers: each is accessed 2^18 times (4 bytes), so the order is the
    // definition's: matmul (read-write), A, B.
    // matmul(x, y): index 64*y + x; x_1 moves it by one float.
    CHECK(buf(u, 0, kAccReadWrite) == 1);
    CHECK_F(buf(u, 0, kBytes), lg(4 * N * W));
    CHECK_F(buf(u, 0, kUniqueBytes), lg(64 * 64 * 4));
    CHECK_F(buf(u, 0, kLines), lg(N / 8 * W));       // 8 floats of x_1 share a 64-byte line
    CHECK_F(buf(u, 0, kUniqueLines), lg(64 * 64 * 4 / 64));
    CHECK(buf(u, 0, kReuseLoop) == 1);              // k does not move it
    CHECK_F(buf(u, 0, kReuseCt), lg(64));
    CHECK_F(buf(u, 0, kReuseDisIter), lg(64));      // y_1 * x_1 iterations between reuses
    // Inside k: matmul 8x8 floats, A(k, y) 8 floats, B(x, k) 8 floats.
    CHECK_F(buf(u, 0, kReuseDisBytes), lg(256 + 32 + 32));
    CHECK_F(buf(u, 0, kStride), lg(1));
    CHECK_F(buf(u, 0, kBytesDReuseCt), lg(4 * N / 64 * W));
    CHECK_F(buf(u, 0, kUniqueBytesDReuseCt), lg(16384.0 / 64));
    CHECK_F(buf(u, 0, kLinesDReuseCt), lg(N / 8 / 64 * W));
    CHECK_F(buf(u, 0, kUniqueLinesDReuseCt), lg(256.0 / 64));
    // A(k, y): x_1 does not move it (reused 8 times, one iteration apart);
    // the innermost loop that does is y_1, a row of 256 bytes per step.
    CHECK(buf(u, 1, kAccRead) == 1);
    CHECK_F(buf(u, 1, kBytes), lg(4 * N * W));
    CHECK_F(buf(u, 1, kUniqueBytes), lg(16384));
    CHECK_F(buf(u, 1, kLines), lg(8 * 8 * 64 * 8 * W));  // one line per y_1 step, per outer iteration
    CHECK_F(buf(u, 1, kUniqueLines), lg(256));
    CHECK(buf(u, 1, kReuseLoop) == 1);
    CHECK_F(buf(u, 1, kReuseCt), lg(8));
    CHECK_F(buf(u, 1, kReuseDisIter), lg(1));
    CHECK_F(buf(u, 1, kReuseDisBytes), lg(12));  // one float of each buffer
    CHECK_F(buf(u, 1, kStride), lg(64));
    CHECK_F(buf(u, 1, kLinesDReuseCt), lg(32768.0 / 8 * W));
    // B(x, k): y_1 does not move it; x_1 walks a line.
    CHECK(buf(u, 2, kAccRead) == 1);
    CHECK_F(buf(u, 2, kLines), lg(N / 8 * W));
    CHECK(buf(u, 2, kReuseLoop) == 1);
    CHECK_F(buf(u, 2, kReuseCt), lg(8));
    CHECK_F(buf(u, 2, kReuseDisIter), lg(8));
    CHECK_F(buf(u, 2, kReuseDisBytes), lg(32 + 4 + 32));  // inside y_1: x_1's 8 floats of matmul and B, 1 of A
    CHECK_F(buf(u, 2, kStride), lg(1));
    CHECK_F(buf(u, 2, kUniqueBytesDReuseCt), lg(16384.0 / 8));
    // No fourth buffer.
    CHECK(buf(u, 3, kBytes) == 0);
    CHECK(buf(u, 3, kAccRead) + buf(u, 3, kAccWrite) + buf(u, 3, kAccReadWrite) == 0);

    // Allocation (at root), loops, pragma.
    CHECK_F(col(u, "alloc_size"), lg(64 * 64 * 4));
    CHECK_F(col(u, "alloc_inner_prod"), lg(64 * 64));
    CHECK_F(col(u, "alloc_outer_prod"), lg(W));  // one allocation
    CHECK_F(col(u, "alloc_prod"), lg(64 * 64 * W));
    CHECK_F(col(u, "outer_prod"), lg(N * W));
    CHECK(col(u, "num_loops") == 5);
    CHECK_F(col(u, "auto_unroll_max_step"), lg(16));

    // Arithmetic intensity: 2 flops per iteration over the bytes touched
    // inside each loop, x_1 outwards.
    const double ops[5] = {16, 128, 8192, 65536, 524288};
    const double bytes[5] = {68, 320, 256 + 2048 + 2048, 2048 + 2048 + 16384, 3 * 16384};
    double x[5], y[5];
    for (int i = 0; i < 5; i++) {
        x[i] = std::log2(1 + ops[i]);
        y[i] = ops[i] / bytes[i];
    }
    for (int i = 0; i < kCurvePoints; i++) {
        double t = x[4] * (i + 1) / kCurvePoints;
        int p = 0;
        while (p < 4 && x[p] < t - 1e-9) p++;
        double want = p == 0 ? y[0] : y[p - 1] + (t - x[p - 1]) / (x[p] - x[p - 1]) * (y[p] - y[p - 1]);
        CHECK_F(u.values[kCurveBegin + i], want);
    }
    CHECK_F(u.values[kCurveBegin], 16.0 / 68);
    CHECK_F(u.values[kCurveBegin + 9], 524288.0 / 49152);

    // The pure definition: matmul(x, y) = 0 over y, x, untouched.
    const StageFeatures &init = find(m, fs, mm, 0);
    CAPTURE(dump(init));
    CHECK(col(init, "float_mad") == 0);
    CHECK(buf(init, 0, kAccWrite) == 1);
    CHECK_F(buf(init, 0, kBytes), lg(64 * 64 * 4 * W));
    CHECK_F(buf(init, 0, kLines), lg(64 * 4 * W));  // a 256-byte row is 4 lines
    CHECK(buf(init, 0, kReuseNone) == 1);
    CHECK(buf(init, 1, kBytes) == 0);
    CHECK(col(init, "vec_pos_none") == 1);
    CHECK(col(init, "num_loops") == 2);
    CHECK(col(init, "auto_unroll_max_step") == 0);
    // No arithmetic: the curve is flat zero.
    for (int i = 0; i < kCurvePoints; i++) CHECK(init.values[kCurveBegin + i] == 0);
}

TEST_CASE("features: a producer computed inside its consumer's tiles, by hand") {
    auto p = ansor_test::make_blur(256, 128);
    PipelineDAG dag(p.functions(), 2);
    const std::string bx = ansor_test::resolve(dag, "blur_x"), by = ansor_test::resolve(dag, "blur_y");
    State s(dag);
    inline_input_wrappers(dag, s);
    s.add(std::make_shared<SplitStep>(by, 0, "y", std::vector<int64_t>{8}));
    s.add(std::make_shared<ComputeLocationStep>(bx, Location{LocationKind::At, by, 0, "y_0"}));
    LoopNest m = s.replay();
    REQUIRE(m.func(bx).extents == std::vector<int64_t>{256, 10});
    FeatureExtractor fx(dag);
    auto fs = fx.extract(m);
    REQUIRE(fs.size() == 2);

    // blur_x: y_0 (16) of blur_y, then its own y (10), x (256).
    const StageFeatures &f = find(m, fs, bx, 0);
    CAPTURE(dump(f));
    const double N = 16 * 10 * 256;
    const double W = 1024.0 / (258 * 130);  // per 1024 points of the input, the largest buffer
    CHECK(col(f, "num_loops") == 3);
    CHECK_F(col(f, "outer_prod"), lg(N * W));
    // in(x, y) + in(x + 1, y) + in(x + 2, y): 2 float adds, 2 index adds.
    CHECK_F(col(f, "float_addsub"), lg(2 * N * W));
    CHECK_F(col(f, "int_addsub"), lg(2 * N * W));
    // Three reads of `in` make the most bytes; it is read in global
    // coordinates, y_0 stepping 8 rows: 258 x (8 * 15 + 9 + 1) floats.
    CHECK(buf(f, 0, kAccRead) == 1);
    CHECK_F(buf(f, 0, kBytes), lg(3 * 4 * N * W));
    CHECK_F(buf(f, 0, kUniqueBytes), lg(258 * 130 * 4));
    CHECK(buf(f, 0, kReuseSerial) == 1);  // no loop leaves it alone, but 3 reads per iteration
    CHECK_F(buf(f, 0, kReuseCt), lg(2));
    CHECK_F(buf(f, 0, kReuseDisIter), lg(1));
    CHECK_F(buf(f, 0, kReuseDisBytes), lg(3 * 4 + 4));
    // x steps one float: 256 floats are 16 lines, per (y_0, y).
    CHECK_F(buf(f, 0, kLines), lg(3 * 16 * 10 * 16 * W));
    // Its own buffer is allocated inside y_0 and addressed relative to it.
    CHECK(buf(f, 1, kAccWrite) == 1);
    CHECK_F(buf(f, 1, kBytes), lg(4 * N * W));
    CHECK_F(buf(f, 1, kUniqueBytes), lg(256 * 10 * 4));
    CHECK_F(buf(f, 1, kUniqueLines), lg(256 * 10 * 4 / 64));
    CHECK(buf(f, 1, kReuseNone) == 1);  // y_0 recomputes it: no reuse across it
    CHECK_F(col(f, "alloc_size"), lg(256 * 10 * 4));
    CHECK_F(col(f, "alloc_inner_prod"), lg(2560));
    CHECK_F(col(f, "alloc_outer_prod"), lg(16 * W));
    CHECK_F(col(f, "alloc_prod"), lg(2560 * 16 * W));

    // blur_y reads blur_x's 10-row window at each y_0.
    const StageFeatures &g = find(m, fs, by, 0);
    CAPTURE(dump(g));
    CHECK(col(g, "num_loops") == 3);
    int bxi = buf(g, 0, kAccRead) == 1 ? 0 : 1;
    CHECK(buf(g, bxi, kAccRead) == 1);
    CHECK_F(buf(g, bxi, kBytes), lg(3 * 4 * 256 * 128 * W));
    CHECK_F(buf(g, bxi, kUniqueBytes), lg(256 * 10 * 4));
    CHECK(buf(g, bxi, kReuseSerial) == 1);
}

TEST_CASE("features: a cache write computed inside the output's tiles, by hand") {
    auto p = ansor_test::make_matmul(64);
    PipelineDAG dag(p.functions(), 2);
    const std::string mm = ansor_test::resolve(dag, "matmul"), intm = mm + "_intm";
    State s(dag);
    inline_input_wrappers(dag, s);
    s.add(std::make_shared<CacheWriteStep>(mm));
    s.add(std::make_shared<SplitStep>(mm, 1, "y", std::vector<int64_t>{8}));
    s.add(std::make_shared<SplitStep>(mm, 1, "x", std::vector<int64_t>{8}));
    s.add(std::make_shared<ReorderStep>(mm, 1, std::vector<std::string>{"y_0", "x_0", "y_1", "x_1"}));
    s.add(std::make_shared<ComputeLocationStep>(intm, Location{LocationKind::At, mm, 1, "x_0"}));
    LoopNest m = s.replay();
    REQUIRE(m.func(intm).extents == std::vector<int64_t>{8, 8});
    FeatureExtractor fx(dag);
    auto fs = fx.extract(m);
    REQUIRE(fs.size() == 4);

    // matmul_intm's update: y_0, x_0 of matmul, then its own y, x (8 each), k (64).
    const StageFeatures &u = find(m, fs, intm, 1);
    CAPTURE(dump(u));
    const double N = 8 * 8 * 8 * 8 * 64;
    const double W = 1024.0 / (2 * 64 * 64);  // per 1024 points of A and B
    CHECK(col(u, "num_loops") == 5);
    CHECK_F(col(u, "float_mad"), lg(N * W));
    // Order: intm (read-write), A, B. intm is an 8x8 tile, k leaves it alone.
    CHECK(buf(u, 0, kAccReadWrite) == 1);
    CHECK_F(buf(u, 0, kUniqueBytes), lg(8 * 8 * 4));
    CHECK_F(buf(u, 0, kLines), lg(8 * 8 * 8 * 1 * W));  // x steps it: 8 floats, one line, per (y_0, x_0, y)
    CHECK(buf(u, 0, kReuseLoop) == 1);
    CHECK_F(buf(u, 0, kReuseCt), lg(64));
    CHECK_F(buf(u, 0, kReuseDisIter), lg(1));
    CHECK_F(buf(u, 0, kReuseDisBytes), lg(12));
    // A(k, y) in global coordinates: y_0 steps y by 8, so the whole of A.
    CHECK(buf(u, 1, kAccRead) == 1);
    CHECK_F(buf(u, 1, kUniqueBytes), lg(64 * 64 * 4));
    CHECK_F(buf(u, 1, kStride), lg(1));
    CHECK_F(buf(u, 1, kLines), lg(8 * 8 * 8 * 8 * 4 * W));  // k walks a 256-byte row: 4 lines
    CHECK_F(buf(u, 1, kReuseCt), lg(8));                // x leaves it alone
    CHECK_F(buf(u, 1, kReuseDisIter), lg(64));
    CHECK_F(buf(u, 1, kReuseDisBytes), lg(4 + 256 + 256));
    // B(x, k): k steps a whole row.
    CHECK_F(buf(u, 2, kStride), lg(64));
    CHECK_F(buf(u, 2, kLines), lg(N * W));
    CHECK_F(buf(u, 2, kUniqueBytes), lg(64 * 64 * 4));
    CHECK_F(buf(u, 2, kReuseCt), lg(8));  // y leaves it alone
    CHECK_F(col(u, "alloc_size"), lg(8 * 8 * 4));
    CHECK_F(col(u, "alloc_outer_prod"), lg(64 * W));
    CHECK_F(col(u, "alloc_prod"), lg(64 * 64 * W));

    // matmul's update now adds each tile of partial sums in.
    const StageFeatures &merge = find(m, fs, mm, 1);
    CAPTURE(dump(merge));
    CHECK(col(merge, "num_loops") == 4);
    CHECK_F(col(merge, "float_addsub"), lg(64 * 64 * W));
    CHECK(col(merge, "float_mad") == 0);
    CHECK(buf(merge, 0, kAccReadWrite) == 1);
    CHECK_F(buf(merge, 0, kUniqueBytes), lg(64 * 64 * 4));
    CHECK(buf(merge, 1, kAccRead) == 1);
    CHECK_F(buf(merge, 1, kUniqueBytes), lg(8 * 8 * 4));
    CHECK(buf(merge, 1, kReuseNone) == 1);
}

TEST_CASE("features: different schedules of one pipeline give different features") {
    auto p = ansor_test::make_matmul(64);
    PipelineDAG dag(p.functions(), 2);
    const std::string mm = ansor_test::resolve(dag, "matmul");
    FeatureExtractor fx(dag);
    LoopNest tiled = tiled_matmul(dag, mm).replay();
    State plain_state(dag);
    inline_input_wrappers(dag, plain_state);
    LoopNest plain = plain_state.replay();
    auto a = fx.extract(tiled), b = fx.extract(plain);
    REQUIRE(a.size() == b.size());
    CHECK(a[1].values != b[1].values);
    // Same schedule, same features; a second extractor agrees.
    CHECK(fx.extract(tiled)[1].values == a[1].values);
    CHECK(extract_features(tiled)[1].values == a[1].values);
    // Another tile size changes reuse, lines and the curve.
    State other(dag);
    inline_input_wrappers(dag, other);
    other.add(std::make_shared<SplitStep>(mm, 1, "x", std::vector<int64_t>{16}));
    other.add(std::make_shared<AnnotateStep>(mm, 1, "x_1", Annotation::Vectorize));
    auto c = fx.extract(other.replay());
    CHECK(c[1].values != a[1].values);
    CHECK(c[1].values != b[1].values);
}

TEST_CASE("features: sampled programs of several pipelines give finite vectors for every statement") {
    std::vector<ansor_test::Pipe> pipes = {ansor_test::make_matmul(64), ansor_test::make_matmul_relu(64),
                                           ansor_test::make_norm(64), ansor_test::make_padded_conv(),
                                           ansor_test::make_blur(), ansor_test::make_elementwise_chain()};
    for (auto &p : pipes) {
        PipelineDAG dag(p.functions(), 2);
        auto sketches = generate_sketches({dag, cpu()});
        REQUIRE(!sketches.empty());
        AnnotationOptions ao;
        ao.parallelism = 2;
        RandomAnnotator annotator(dag, cpu(), ao);
        FeatureExtractor fx(dag);
        std::mt19937_64 rng(7);
        std::set<std::vector<float>> distinct;
        int sampled = 0;
        for (int i = 0; i < 40; i++) {
            LoopNest m(dag);
            try {
                m = annotator.annotate(sketches[i % sketches.size()], rng).replay();
            } catch (const InvalidState &) {
                continue;  // a sketch the annotator could not complete this time
            }
            auto fs = fx.extract(m);
            size_t stages = 0;
            for (const auto &f : m.funcs()) {
                if (f.location.kind != LocationKind::Inline) stages += f.stages.size();
            }
            CHECK(fs.size() == stages);
            std::vector<float> all;
            for (const auto &f : fs) {
                bool finite = true;
                for (float v : f.values) finite = finite && std::isfinite(v) && v >= 0;
                CHECK(finite);
                all.insert(all.end(), f.values.begin(), f.values.end());
                // Every statement writes something and has at least its own buffer.
                CHECK(buf(f, 0, kBytes) > 0);
            }
            distinct.insert(all);
            sampled++;
        }
        CHECK(distinct.size() > 1);
    }
}

TEST_CASE("features: an rfactor intermediate and a cache write are described through the Func they came from") {
    auto p = ansor_test::make_norm(256);
    PipelineDAG dag(p.functions(), 2);
    const std::string sq = ansor_test::resolve(dag, "sumsq");
    auto sketches = generate_sketches({dag, cpu()});
    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, cpu(), ao);
    FeatureExtractor fx(dag);
    std::mt19937_64 rng(11);
    bool saw_intm = false;
    for (int i = 0; i < 20; i++) {
        LoopNest m = annotator.annotate(sketches[i % sketches.size()], rng).replay();
        if (!m.has(sq + "_intm")) continue;
        saw_intm = true;
        auto fs = fx.extract(m);
        const StageFeatures &upd = find(m, fs, sq + "_intm", 1);
        CAPTURE(dump(upd));
        // The intermediate's update does all the squaring: 256 * 256 mads.
        CHECK_F(col(upd, "float_mad"), lg(256.0 * 256 * 1024 / (256 * 256)));  // per 1024 input points
        // It reads the whole input once.
        int in_buf = -1;
        for (int b = 0; b < kMaxBuffers; b++) {
            if (buf(upd, b, kAccRead) == 1 && buf(upd, b, kUniqueBytes) > 0) in_buf = b;
        }
        REQUIRE(in_buf >= 0);
        CHECK_F(buf(upd, in_buf, kUniqueBytes), lg(256.0 * 256 * 4));
        // The merge reads the partial sums.
        const StageFeatures &merge = find(m, fs, sq, 1);
        CAPTURE(dump(merge));
        CHECK(col(merge, "float_addsub") > 0);
        CHECK(col(merge, "float_mad") == 0);
    }
    CHECK(saw_intm);
}

TEST_CASE("features: counts that grow with the problem are per point of its data, cache sizes stay absolute") {
    // The same elementwise chain at two sizes, every Func at root: per 1024
    // points of its data each statement does the same work, but its buffers
    // are four times larger.
    auto stage_a = [](int w, int h) {
        auto p = ansor_test::make_elementwise_chain(w, h);
        PipelineDAG dag(p.functions(), 2);
        State s(dag);
        inline_input_wrappers(dag, s);
        for (const char *f : {"a", "b", "c"}) {
            s.add(std::make_shared<ComputeLocationStep>(ansor_test::resolve(dag, f), Location{}));
        }
        LoopNest m = s.replay();
        auto fs = extract_features(m);
        return find(m, fs, ansor_test::resolve(dag, "a"), 0);
    };
    const StageFeatures small = stage_a(256, 128), large = stage_a(512, 256);
    CAPTURE(dump(small));
    CAPTURE(dump(large));
    for (const char *work : {"float_mul", "outer_prod", "alloc_prod"}) {
        CHECK_F(col(large, work), col(small, work));
    }
    CHECK_F(col(small, "float_mul"), lg(1024));
    // One allocation per run: per point, fewer of them in the larger image.
    CHECK_F(col(small, "alloc_outer_prod"), lg(1024.0 / (256 * 128)));
    CHECK_F(col(large, "alloc_outer_prod"), lg(1024.0 / (512 * 256)));
    CHECK_F(buf(large, 0, kBytes), buf(small, 0, kBytes));
    CHECK_F(buf(large, 0, kLines), buf(small, 0, kLines));
    CHECK_F(col(small, "alloc_size"), lg(256 * 128 * 4));
    CHECK_F(col(large, "alloc_size"), lg(512 * 256 * 4));
    CHECK_F(buf(large, 0, kUniqueBytes), lg(512 * 256 * 4));
}

TEST_CASE("features: scatter, scalar, tuple, extern and predicated pipelines give finite vectors") {
    using namespace Halide;
    std::vector<std::vector<Func>> pipes;
    {
        ImageParam in(UInt(8), 2, "img");
        in.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, 48);
        Var x("x"), y("y"), i("i");
        RDom r(0, 64, 0, 48, "r");
        Func hist("hist"), eq("eq");
        hist(i) = 0;
        hist(cast<int>(in(r.x, r.y))) += 1;
        eq(x, y) = hist(cast<int>(in(x, y))) * 3;
        eq.set_estimate(x, 0, 64).set_estimate(y, 0, 48);
        pipes.push_back({eq});
    }
    {
        ImageParam in(Float(32), 2, "in");
        in.dim(0).set_estimate(0, 128).dim(1).set_estimate(0, 64);
        RDom r(0, 128, 0, 64, "r");
        Func sq("sq"), total("total");
        Var x("x"), y("y");
        sq(x, y) = in(x, y) * in(x, y);
        total() = 0.f;
        total() += sq(r.x, r.y);
        pipes.push_back({total});
    }
    {
        ImageParam in(Float(32), 1, "in");
        in.dim(0).set_estimate(0, 256);
        Var x("x");
        Func minmax("minmax"), out("spread");
        minmax(x) = Tuple(in(x) - 1.f, in(x) + 1.f);
        out(x) = minmax(x)[1] * minmax(x)[0];
        out.set_estimate(x, 0, 256);
        pipes.push_back({out});
    }
    {
        ImageParam in(Float(32), 1, "in");
        in.dim(0).set_estimate(0, 200);
        Var x("x");
        Func pre("pre"), ext("doubled"), out("after");
        pre(x) = in(x) + 1.f;
        ext.define_extern("ansor_test_double_it", {pre}, Float(32), 1);
        out(x) = ext(x) * 0.5f + pre(x);
        out.set_estimate(x, 0, 200);
        pipes.push_back({out});
    }
    {
        ImageParam in(Float(32), 2, "in");
        in.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, 64);
        Var x("x");
        RDom r(0, 64, "r");
        r.where(r.x <= x);
        Func prefix("prefix");
        prefix(x) = 0.f;
        prefix(x) += in(r.x, x);
        prefix.set_estimate(x, 0, 64);
        pipes.push_back({prefix});
    }
    for (const auto &outs : pipes) {
        std::vector<Halide::Internal::Function> fns;
        for (const Func &f : outs) fns.push_back(f.function());
        PipelineDAG dag(fns, 2);
        FeatureExtractor fx(dag);
        std::vector<LoopNest> models = {LoopNest(dag)};
        auto sketches = generate_sketches({dag, cpu()});
        AnnotationOptions ao;
        ao.parallelism = 2;
        RandomAnnotator annotator(dag, cpu(), ao);
        std::mt19937_64 rng(5);
        for (int i = 0; i < 10 && !sketches.empty(); i++) {
            try {
                models.push_back(annotator.annotate(sketches[i % sketches.size()], rng).replay());
            } catch (const InvalidState &) {
            }
        }
        for (const LoopNest &m : models) {
            auto fs = fx.extract(m);
            CHECK(!fs.empty());
            for (const auto &f : fs) {
                bool finite = true;
                for (float v : f.values) finite = finite && std::isfinite(v) && v >= 0;
                CHECK(finite);
            }
        }
    }
}
