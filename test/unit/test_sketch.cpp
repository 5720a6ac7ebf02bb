#include "sketch/sketch_generator.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

#include <set>

using namespace ansor;

namespace {

Halide::Target cpu() {
    return Halide::Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");
}

std::vector<std::string> kinds(const State &s, const std::string &func) {
    std::vector<std::string> k;
    if (const FuncSteps *g = s.group(ansor_test::resolve(s.dag(), func))) {
        for (const auto &st : g->steps) k.push_back(st->kind());
    }
    return k;
}

bool has(const std::vector<std::string> &v, const std::string &x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// The reorder step of a stage, as loop names outermost first.
std::vector<std::string> reorder_of(const State &s, const std::string &func, int stage) {
    for (const auto &st : s.group(ansor_test::resolve(s.dag(), func))->steps) {
        if (auto r = std::dynamic_pointer_cast<const ReorderStep>(st); r && r->stage == stage) return r->order;
    }
    return {};
}

}  // namespace

TEST_CASE("sketch: matmul gives a multi-level tiled sketch and a cache-write sketch") {
    auto p = ansor_test::make_matmul(64);
    PipelineDAG dag(p.functions(), 2);
    auto sketches = generate_sketches({dag, cpu()});
    REQUIRE(sketches.size() == 3);  // the tiled one also with B staged (cache_read_at_consumer_tile)
    int with_cache = 0;
    for (const State &s : sketches) {
        auto k = kinds(s, "matmul");
        if (has(k, "cache_write")) {
            with_cache++;
            // The accumulation moved to matmul_intm, tiled inside matmul's tiles.
            auto ik = kinds(s, "matmul_intm");
            REQUIRE_FALSE(ik.empty());
            CHECK(ik[0] == "compute_at");
            auto order = reorder_of(s, "matmul_intm", 1);
            // "SRSRS": y_2 x_2 | k_0 | y_3 x_3 | k_1 | y_4 x_4? (3 space, 2 reduction levels)
            REQUIRE(order.size() == 8);
            CHECK(order[2] == "k$x_0");
            CHECK(order[5] == "k$x_1");
        } else {
            // "SSRSRS": 4 levels of x and y, 2 of k, k levels between them.
            auto order = reorder_of(s, "matmul", 1);
            std::vector<std::string> want = {"y_0", "x_0", "y_1", "x_1", "k$x_0", "y_2", "x_2", "k$x_1", "y_3", "x_3"};
            CHECK(order == want);
        }
    }
    CHECK(with_cache == 1);
}

TEST_CASE("sketch: matmul + ReLU fuses the matmul into the ReLU's tiles") {
    auto p = ansor_test::make_matmul_relu(64);
    PipelineDAG dag(p.functions(), 2);
    auto sketches = generate_sketches({dag, cpu()});
    REQUIRE(sketches.size() == 2);  // and with B staged (cache_read_at_consumer_tile)
    const State &s = sketches[0];
    auto mk = kinds(s, "matmul");
    REQUIRE_FALSE(mk.empty());
    CHECK(mk[0] == "compute_at");
    auto loc = std::dynamic_pointer_cast<const ComputeLocationStep>(s.group(ansor_test::resolve(dag, "matmul"))->steps[0]);
    CHECK(loc->location.func == ansor_test::resolve(dag, "relu"));
    CHECK(loc->location.loop == "x_1");
    CHECK(reorder_of(s, "relu", 0) == std::vector<std::string>{"y_0", "x_0", "y_1", "x_1", "y_2", "x_2"});
    CHECK_FALSE(has(mk, "cache_write"));
}

TEST_CASE("sketch: 2-norm gets an rfactor sketch beside the plain one") {
    auto p = ansor_test::make_norm(256);
    PipelineDAG dag(p.functions(), 2);
    auto sketches = generate_sketches({dag, cpu()});
    REQUIRE(sketches.size() == 2);
    int rf = 0;
    for (const State &s : sketches) {
        if (has(kinds(s, "sumsq"), "rfactor")) {
            rf++;
            CHECK(kinds(s, "sumsq_intm") == std::vector<std::string>{"compute_root"});
        }
    }
    CHECK(rf == 1);
}

TEST_CASE("sketch: an elementwise chain is inlined") {
    auto p = ansor_test::make_elementwise_chain();
    PipelineDAG dag(p.functions(), 2);
    auto sketches = generate_sketches({dag, cpu()});
    REQUIRE(sketches.size() == 1);
    for (const char *f : {"a", "b"}) CHECK(kinds(sketches[0], f) == std::vector<std::string>{"compute_inline"});
    CHECK(kinds(sketches[0], "out").empty());
}

namespace {
// A user rule: compute every reduction Func at root and give it nothing else.
class RootReductions : public SketchRule {
public:
    std::string name() const override { return "root_reductions"; }
    RuleResult condition(const SketchContext &ctx, const State &, int i) const override {
        return ctx.dag.node(i).stages.size() > 1 ? RuleResult::Apply : RuleResult::Pass;
    }
    SketchSuccessors apply(const SketchContext &, const State &s, int i) const override {
        State next = s;
        add_compute_root(next, i);
        next.add(std::make_shared<AnnotateStep>(s.dag().node(i).name, 0, "y", Annotation::Parallel));
        return {{next, i - 1}};
    }
};
}  // namespace

TEST_CASE("sketch: a registered rule joins the enumeration") {
    auto p = ansor_test::make_matmul(64);
    PipelineDAG dag(p.functions(), 2);
    register_sketch_rule(std::make_shared<RootReductions>());
    auto sketches = generate_sketches({dag, cpu()});
    clear_registered_sketch_rules();
    REQUIRE(sketches.size() == 4);
    int from_user_rule = 0;
    for (const auto &s : sketches) {
        auto k = kinds(s, "matmul");
        if (k == std::vector<std::string>{"parallel"}) from_user_rule++;
    }
    CHECK(from_user_rule == 1);
    CHECK(generate_sketches({dag, cpu()}).size() == 3);
}

TEST_CASE("sketch: a chain of matrix products keeps its sketches bounded, with both placements of its first product") {
    // Each product may be tiled in place, through a cache-write stage or with
    // its right-hand side staged: the whole enumeration multiplies these over
    // the chain (4374 sketches here), and the bounded open list keeps a few hundred.
    const int n = 32, products = 8;
    Halide::ImageParam A(Halide::Float(32), 2, "A"), B(Halide::Float(32), 2, "B");
    A.dim(0).set_estimate(0, n).dim(1).set_estimate(0, n);
    B.dim(0).set_estimate(0, n).dim(1).set_estimate(0, n);
    Halide::Var x("x"), y("y");
    Halide::Func prev = A;
    for (int i = 0; i < products; i++) {
        Halide::RDom k(0, n, "k");
        Halide::Func c("product_" + std::to_string(i));
        c(x, y) = 0.f;
        c(x, y) += prev(k, y) * B(x, k);
        prev = c;
    }
    prev.set_estimate(x, 0, n).set_estimate(y, 0, n);
    PipelineDAG dag({prev.function()}, 2);
    auto sketches = generate_sketches({dag, cpu()});
    CHECK(sketches.size() >= 64);
    CHECK(sketches.size() <= 2 * kMaxOpenSketches);
    std::set<std::string> keys;
    int first_cached = 0, first_plain = 0;
    for (const State &s : sketches) {
        keys.insert(s.key());
        (has(kinds(s, "product_0"), "cache_write") ? first_cached : first_plain)++;
    }
    CHECK(keys.size() == sketches.size());
    CHECK(first_cached > 0);
    CHECK(first_plain > 0);
}
