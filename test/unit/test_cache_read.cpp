// Cache reads: the cache_read step (an operand staged for one consumer
// through a Halide wrapper, f.in(g), computed at a tile loop with its
// storage reordered) and the sketch rule cache_read_at_consumer_tile
// (GEMM's packed B panels). Programs with a cache read must compute what the
// all-at-root reference computes.
#include "annotate/random_annotator.h"
#include "measure/measurer.h"
#include "records/canonical_steps.h"
#include "records/pipeline_key.h"
#include "search/mutations.h"
#include "search/program_sampler.h"
#include "sketch/sketch_generator.h"
#include "measure_test_support.h"
#include "test_pipelines.h"
#include "util/errors.h"

#include <doctest/doctest.h>

#include <functional>

using namespace ansor;

namespace {

Halide::Target cpu() { return ansor_test::cpu_target(); }

std::string name_of(const PipelineDAG &dag, const std::string &base) { return ansor_test::resolve(dag, base); }

const CacheReadStep *cache_read_of(const State &s, const std::string &func) {
    if (const FuncSteps *g = s.group(func)) {
        for (const auto &step : g->steps) {
            if (auto c = step->as<CacheReadStep>()) return c;
        }
    }
    return nullptr;
}

std::vector<std::string> reorder_of(const State &s, const std::string &func, int stage) {
    if (const FuncSteps *g = s.group(func)) {
        for (const auto &step : g->steps) {
            if (auto r = step->as<ReorderStep>(); r && r->stage == stage) return r->order;
        }
    }
    return {};
}

bool reads_through_cache(const State &s) { return s.structure_key().find("cache_read ") != std::string::npos; }

// The sketch of matmul + ReLU with B staged (there is one).
State staged_sketch(const PipelineDAG &dag) {
    for (const State &s : generate_sketches({dag, cpu()})) {
        if (reads_through_cache(s)) return s;
    }
    FAIL("no cache-read sketch");
    return State(dag);
}

// `sketch` with its cache read replaced by `edit` of it.
State with_cache_read(const State &sketch, const std::string &func,
                      const std::function<StepPtr(const CacheReadStep &)> &edit) {
    State out = sketch;
    for (auto &step : out.group(func).steps) {
        if (auto c = step->as<CacheReadStep>()) step = edit(*c);
    }
    return out;
}

}  // namespace

TEST_CASE("cache read: the B operand of a tiled matrix product is staged at the output's outer tile") {
    ansor_test::Pipe p = ansor_test::make_matmul_relu(64);
    PipelineDAG dag(p.functions(), 2);
    const std::string relu = name_of(dag, "relu"), matmul = name_of(dag, "matmul");
    const std::string a = name_of(dag, "A_im"), b = name_of(dag, "B_im");
    const auto sketches = generate_sketches({dag, cpu()});
    int staged = 0;
    for (const State &s : sketches) {
        CHECK(cache_read_of(s, a) == nullptr);  // A(k, y) is not walked by the vector loop x
        const CacheReadStep *c = cache_read_of(s, b);
        if (!c) continue;
        staged++;
        CHECK(c->consumer == matmul);
        // relu tiled "SSS" (y_0, x_0, ...): the panel at the outer tile x_0,
        // with B's dim 0 (walked by x) innermost.
        const std::vector<std::string> order = reorder_of(s, relu, 0);
        REQUIRE(order.size() == 6);
        CHECK(c->location == Location{LocationKind::At, relu, 0, order[1]});
        CHECK(c->storage_order == std::vector<int>{0, 1});
        CHECK(c->deferred());
        REQUIRE_NOTHROW(s.replay());
    }
    CHECK(staged == 1);
    CHECK(sketches.size() == 2);
}

TEST_CASE("cache read: replay refuses a wrapper its consumer cannot use") {
    ansor_test::Pipe p = ansor_test::make_matmul_relu(64);
    PipelineDAG dag(p.functions(), 2);
    const std::string relu = name_of(dag, "relu"), matmul = name_of(dag, "matmul"), b = name_of(dag, "B_im");
    const State sketch = staged_sketch(dag);
    auto edited = [&](std::function<StepPtr(const CacheReadStep &)> edit) { return with_cache_read(sketch, b, edit); };
    // relu does not call B.
    CHECK_THROWS_AS(edited([&](const CacheReadStep &s) {
                        return std::make_shared<CacheReadStep>(b, relu, s.location, s.storage_order);
                    }).replay(),
                    InvalidState);
    // A loop inside matmul's tile (its inner loops) does not enclose matmul.
    const std::vector<std::string> order = reorder_of(sketch, relu, 0);
    CHECK_THROWS_AS(edited([&](const CacheReadStep &s) {
                        return std::make_shared<CacheReadStep>(b, matmul, Location{LocationKind::At, relu, 0, order.back()},
                                                               s.storage_order);
                    }).replay(),
                    InvalidState);
    CHECK_THROWS_AS(edited([&](const CacheReadStep &s) {
                        return std::make_shared<CacheReadStep>(b, matmul, s.location, std::vector<int>{0, 0});
                    }).replay(),
                    InvalidState);
    // Any storage order of B's two dims, and Halide's own, are accepted.
    CHECK_NOTHROW(edited([&](const CacheReadStep &s) {
                      return std::make_shared<CacheReadStep>(b, matmul, s.location, std::vector<int>{1, 0});
                  }).replay());
    CHECK_NOTHROW(edited([&](const CacheReadStep &s) {
                      return std::make_shared<CacheReadStep>(b, matmul, s.location, std::vector<int>{});
                  }).replay());
}

TEST_CASE("cache read: lowers to f.in(g), round-trips through JSON and canonical names") {
    ansor_test::Pipe p = ansor_test::make_matmul_relu(64);
    PipelineDAG dag(p.functions(), 2);
    const State sketch = staged_sketch(dag);
    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, cpu(), ao);
    std::mt19937_64 rng(3);
    const State s = annotator.annotate(sketch, rng);
    const std::string source = s.source();
    CHECK(source.find(".in(") != std::string::npos);
    CHECK(source.find(".reorder_storage(") != std::string::npos);
    CHECK(s.structure_key().find("cache_read " + name_of(dag, "B_im") + " " + name_of(dag, "matmul") + ";") !=
          std::string::npos);
    CHECK(State::from_json(dag, s.to_json()).key() == s.key());
    const PipelineKey key = make_pipeline_key(dag);
    const nlohmann::json canon = canonical_steps(s, key.names);
    CHECK(canon.dump().find("cache_read") != std::string::npos);
    CHECK(state_from_canonical_steps(dag, key.names, canon).key() == s.key());
    CHECK_THROWS_AS(step_from_json({{"kind", "cache_read"}, {"func", "f"}, {"at", "g"}, {"stage", 0}, {"loop", "x"}}),
                    UserError);
}

TEST_CASE("cache read: matrix products with a staged operand compute what the reference computes") {
    for (int n : {64, 50}) {
        CAPTURE(n);
        ansor_test::Pipe p = ansor_test::make_matmul_relu(n);
        PipelineDAG dag(p.functions(), 2);
        const std::string b = name_of(dag, "B_im");
        const State sketch = staged_sketch(dag);
        AnnotationOptions ao;
        ao.parallelism = 2;
        RandomAnnotator annotator(dag, cpu(), ao);
        std::mt19937_64 rng(21);
        std::vector<State> programs;
        // The rule's layout, and the panel transposed (k innermost).
        const State transposed = with_cache_read(sketch, b, [&](const CacheReadStep &c) {
            return std::make_shared<CacheReadStep>(c.func(), c.consumer, c.location, std::vector<int>{1, 0});
        });
        for (const State *sk : {&sketch, &transposed}) {
            ProgramSampler sampler({*sk}, annotator);
            for (int i = 0; i < 3; i++) {
                auto s = sampler.sample(rng);
                REQUIRE(s);
                CHECK(reads_through_cache(*s));
                programs.push_back(*s);
            }
        }
        // Mutations keep the cache read.
        Mutator mutator(annotator, ao);
        for (int i = 0; i < 20 && programs.size() < 8; i++) {
            if (auto child = mutator.mutate(programs[0], rng); child && reads_through_cache(*child)) programs.push_back(*child);
        }
        ansor_test::expect_all_correct(dag, programs);
    }
}
