// The lookup-table rule (src/sketch/lookup_table_rule.cpp): a table read at
// data-dependent indices keeps a sketch with the table at root beside the
// inlined one, or instead of it where a table that reads data or calls a
// math function serves many lookups per entry; elementwise producers and barely reused tables do not;
// the table programs compute what the reference computes.
#include "annotate/random_annotator.h"
#include "dag/definition_analysis.h"
#include "measure_test_support.h"
#include "search/program_sampler.h"
#include "sketch/sketch_generator.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

using namespace ansor;
using namespace Halide;

namespace {

// out(x, y) = gamma[in(x, y)]: a 256-entry gamma curve (pow per entry) read
// at every pixel of a w x h u8 image; `scale` is an elementwise producer.
ansor_test::Pipe make_gamma(int w, int h) {
    ImageParam in(UInt(8), 2, "in");
    in.dim(0).set_estimate(0, w).dim(1).set_estimate(0, h);
    Var i("i"), x("x"), y("y");
    Func gamma("gamma"), scale("scale"), out("out");
    gamma(i) = cast<uint8_t>(clamp(pow(cast<float>(i) / 255.f, 2.2f) * 255.f + 0.5f, 0.f, 255.f));
    scale(x, y) = in(x, y) / 2 + 1;
    out(x, y) = gamma(cast<int>(in(x, y))) + scale(x, y);
    out.set_estimate(x, 0, w).set_estimate(y, 0, h);
    return {{out}};
}

// The location the sketch's own steps give `func`, if any.
std::optional<LocationKind> sketch_location(const State &s, const std::string &func) {
    const FuncSteps *g = s.group(func);
    if (!g) return std::nullopt;
    for (const StepPtr &step : g->steps) {
        if (const Location *loc = step->placement()) return loc->kind;
    }
    return std::nullopt;
}

int count_with(const PipelineDAG &dag, const std::vector<State> &sketches, const std::string &func, LocationKind kind) {
    int n = 0;
    for (const State &s : sketches) n += sketch_location(s, ansor_test::resolve(dag, func)) == kind;
    return n;
}

}  // namespace

// out(x, y) = poly[in(x, y)]: a 256-entry table of a polynomial (a few
// products and additions, no math call) read at every pixel.
ansor_test::Pipe make_polynomial_table(int w, int h) {
    ImageParam in(UInt(8), 2, "in");
    in.dim(0).set_estimate(0, w).dim(1).set_estimate(0, h);
    Var i("i"), x("x"), y("y");
    Func poly("poly"), out("out");
    poly(i) = cast<uint8_t>((i * i * 3 + i * 7 + 5) % 251);
    out(x, y) = poly(cast<int>(in(x, y))) + in(x, y) / 2;
    out.set_estimate(x, 0, w).set_estimate(y, 0, h);
    return {{out}};
}

TEST_CASE("lookup table rule: a table read at pixel values is kept at root beside the inlined sketch") {
    // 256 lookups per entry; the table neither reads data nor calls a math
    // function, so inlining it stays in the space.
    auto p = make_polynomial_table(256, 256);
    PipelineDAG dag(p.functions(), 2);
    const auto sketches = generate_sketches({dag, ansor_test::cpu_target()});
    CHECK(count_with(dag, sketches, "poly", LocationKind::Root) == 1);
    CHECK(count_with(dag, sketches, "poly", LocationKind::Inline) == (int)sketches.size() - 1);
    // A gamma curve (pow per entry) at 9 lookups per entry: both sketches.
    auto q = make_gamma(48, 48);
    PipelineDAG small(q.functions(), 2);
    const auto both = generate_sketches({small, ansor_test::cpu_target()});
    CHECK(count_with(small, both, "gamma", LocationKind::Root) == 1);
    CHECK(count_with(small, both, "gamma", LocationKind::Inline) == (int)both.size() - 1);
    // The elementwise producer is inlined in every sketch, as before.
    CHECK(count_with(small, both, "scale", LocationKind::Inline) == (int)both.size());
}

TEST_CASE("lookup table rule: a table that calls a math function and serves 64 or more lookups per entry is never inlined") {
    // 256 x 256 pixels: 256 lookups per entry of a pow curve.
    auto p = make_gamma(256, 256);
    PipelineDAG dag(p.functions(), 2);
    CHECK(makes_math_call(dag, dag.node(*dag.index_of(ansor_test::resolve(dag, "gamma")))));
    CHECK_FALSE(makes_math_call(dag, dag.node(*dag.index_of(ansor_test::resolve(dag, "scale")))));
    const auto sketches = generate_sketches({dag, ansor_test::cpu_target()});
    REQUIRE(!sketches.empty());
    CHECK(count_with(dag, sketches, "gamma", LocationKind::Root) == (int)sketches.size());
    CHECK(count_with(dag, sketches, "scale", LocationKind::Inline) == (int)sketches.size());
}

// out(x, y) = curve[in(x, y)], curve(i) = counts(i) * 255 / total: a tone
// curve computed from a 256-entry input (a histogram's counts), read at
// every pixel of a w x h image.
ansor_test::Pipe make_tone_curve(int w, int h) {
    ImageParam in(UInt(8), 2, "in"), counts(UInt(32), 1, "counts");
    in.dim(0).set_estimate(0, w).dim(1).set_estimate(0, h);
    counts.dim(0).set_estimate(0, 256);
    Var i("i"), x("x"), y("y");
    Func curve("curve"), out("out");
    const Expr total = cast<uint64_t>(w * h);
    curve(i) = cast<uint8_t>(min(cast<uint64_t>(counts(i)) * 255 / total, 255));
    out(x, y) = curve(cast<int>(in(x, y))) + in(x, y) / 2;
    out.set_estimate(x, 0, w).set_estimate(y, 0, h);
    return {{out}};
}

TEST_CASE("lookup table rule: a table that reads data and serves 64 or more lookups per entry is never inlined") {
    // 256 x 256 pixels: 256 lookups per entry.
    auto p = make_tone_curve(256, 256);
    PipelineDAG dag(p.functions(), 2);
    const auto sketches = generate_sketches({dag, ansor_test::cpu_target()});
    REQUIRE(!sketches.empty());
    CHECK(count_with(dag, sketches, "curve", LocationKind::Root) == (int)sketches.size());
    // 48 x 48 pixels: 9 lookups per entry, both sketches.
    auto q = make_tone_curve(48, 48);
    PipelineDAG small(q.functions(), 2);
    const auto both = generate_sketches({small, ansor_test::cpu_target()});
    CHECK(count_with(small, both, "curve", LocationKind::Root) == 1);
    CHECK(count_with(small, both, "curve", LocationKind::Inline) == (int)both.size() - 1);
}

TEST_CASE("lookup table rule: a table with fewer lookups than entries is only inlined") {
    // 8 x 8 pixels: 64 lookups into 256 entries.
    auto p = make_gamma(8, 8);
    PipelineDAG dag(p.functions(), 2);
    const auto sketches = generate_sketches({dag, ansor_test::cpu_target()});
    CHECK(count_with(dag, sketches, "gamma", LocationKind::Root) == 0);
    CHECK(count_with(dag, sketches, "gamma", LocationKind::Inline) == (int)sketches.size());
}

TEST_CASE("lookup table rule: programs with the table at root compute the reference's output") {
    auto p = make_gamma(200, 130);
    PipelineDAG dag(p.functions(), 2);
    std::vector<State> tabled;
    for (const State &s : generate_sketches({dag, ansor_test::cpu_target()})) {
        if (sketch_location(s, ansor_test::resolve(dag, "gamma")) == LocationKind::Root) tabled.push_back(s);
    }
    REQUIRE(tabled.size() == 1);
    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, ansor_test::cpu_target(), ao);
    ProgramSampler sampler(tabled, annotator);
    std::mt19937_64 rng(3);
    std::vector<State> programs;
    for (int i = 0; i < 4; i++) {
        auto program = sampler.sample(rng);
        REQUIRE(program.has_value());
        CHECK(program->replay().func(ansor_test::resolve(dag, "gamma")).location.kind == LocationKind::Root);
        programs.push_back(*program);
    }
    ansor_test::expect_all_correct(dag, programs);
}

TEST_CASE("lookup table rule: an index bound in a let (as Halide's common subexpressions bind it) counts as data") {
    ImageParam in(UInt(8), 2, "in");
    in.dim(0).set_estimate(0, 256).dim(1).set_estimate(0, 256);
    Var i("i"), x("x"), y("y");
    Func gamma("gamma"), out("out");
    gamma(i) = cast<uint8_t>(clamp(pow(cast<float>(i) / 255.f, 2.2f) * 255.f + 0.5f, 0.f, 255.f));
    const Expr t = Internal::Variable::make(Int(32), "t");
    out(x, y) = Internal::Let::make("t", cast<int>(in(x, y)), gamma(t) + gamma(t / 2));
    out.set_estimate(x, 0, 256).set_estimate(y, 0, 256);
    PipelineDAG dag({out.function()}, 2);
    const auto sketches = generate_sketches({dag, ansor_test::cpu_target()});
    // Found as a table (512 lookups per entry of a pow curve): at root in
    // every sketch; not found, it would be inlined in all of them.
    REQUIRE(!sketches.empty());
    CHECK(count_with(dag, sketches, "gamma", LocationKind::Root) == (int)sketches.size());
}
