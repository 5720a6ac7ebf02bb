// The graph cost and the backtracking search, with fake kernel costs (no
// timing); the optimised graphs are checked against the reference.
#include "graph_search.h"
#include "joint_test_support.h"

using namespace joint_test;
using namespace ansor_graph;

namespace {

// P [6,4], Q [6,5]: y = transpose(matmul(transpose(P), Q)). Its cheapest
// form, matmul(transpose(Q), P), is two substitutions away, through a
// graph with one transpose more.
const char *kTransposeChain = R"({"name": "transpose_chain",
  "inputs": [{"name": "P", "shape": [6, 4]}, {"name": "Q", "shape": [6, 5]}],
  "weights": [],
  "nodes": [{"name": "t0", "op": "transpose", "inputs": ["P"], "outputs": ["t0"], "attrs": {"perm": [1, 0]}},
            {"name": "m", "op": "matmul", "inputs": ["t0", "Q"], "outputs": ["m"]},
            {"name": "y", "op": "transpose", "inputs": ["m"], "outputs": ["y"], "attrs": {"perm": [1, 0]}}],
  "outputs": ["y"]})";

GraphCostFn cost_fn(FakeCosts &costs) {
    return [&costs](const Graph &g) { return graph_cost(g, costs); };
}

}  // namespace

TEST_CASE("graph cost: the sum over the lowered kernel calls, first provider that answers") {
    Graph g = graph_of(kTwoDense);
    FakeCosts fake({{"dense_bias_act", 10}, {"graph_activation", 2}});
    GraphCost c = graph_cost(g, fake);
    CHECK(c.calls == 3);
    CHECK(c.ms == doctest::Approx(22));
    CHECK(c.calls_by_source["fake"] == 3);

    struct Nothing : KernelCostProvider {
        std::optional<KernelCost> cost(const KernelCall &) override { return std::nullopt; }
    } nothing;
    CostChain chain;
    chain.add(&nothing);
    CHECK_THROWS_AS(graph_cost(g, chain), GraphError);  // nobody knows: an error naming the node
    chain.add(&fake);
    CHECK(graph_cost(g, chain).ms == doctest::Approx(22));
}

TEST_CASE("search: merges two dense layers sharing an input when that is cheaper") {
    Graph g = graph_of(kTwoDense);
    auto rules = rules_of(kMatmulConcatSplit);
    // One matmul and two copies (the split's; the weights' concat is made
    // once at load and costs nothing per run) against two matmuls.
    FakeCosts cheap_copies({{"dense_bias_act", 10}, {"graph_copy", 1}, {"graph_activation", 1}});
    SearchResult r = search_graph(g, rules, cost_fn(cheap_copies));
    CHECK(r.initial_cost == doctest::Approx(21));
    CHECK(r.best_cost == doctest::Approx(13));
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].find("(reversed)") != std::string::npos);
    CHECK(r.steps[0].find("d1") != std::string::npos);
    CHECK(count_op(r.best, "concat") == 1);
    check_same_outputs(g, r.best);

    // When copies are dear, merging does not pay: the input comes back.
    FakeCosts dear_copies({{"dense_bias_act", 10}, {"graph_copy", 6}, {"graph_activation", 1}});
    SearchResult s = search_graph(g, rules, cost_fn(dear_copies));
    CHECK(s.best_cost == doctest::Approx(21));
    CHECK(s.steps.empty());
    CHECK(canonical_hash(s.best) == canonical_hash(g));
}

TEST_CASE("search: alpha lets it pass a worse graph on the way to a better one") {
    Graph g = graph_of(kTransposeChain);
    auto rules = rules_of(kTransposeRules);
    FakeCosts costs({{"dense_bias_act", 10}, {"graph_transpose", 1}});
    SearchOptions strict;
    strict.alpha = 1.0;
    SearchResult r = search_graph(g, rules, cost_fn(costs), strict);
    CHECK(r.initial_cost == doctest::Approx(12));
    CHECK(r.best_cost == doctest::Approx(12));  // the only step up costs 13

    SearchOptions relaxed;
    relaxed.alpha = 1.1;  // 13 < 1.1 x 12
    SearchResult s = search_graph(g, rules, cost_fn(costs), relaxed);
    CHECK(s.best_cost == doctest::Approx(11));
    CHECK(s.steps.size() == 2);
    CHECK(count_op(s.best, "transpose") == 1);
    check_same_outputs(g, s.best);
}

TEST_CASE("search: never returns a graph costlier than its input; the budget bounds it") {
    Graph g = graph_of(kTwoDense);
    auto rules = rules_of(kMatmulConcatSplit);
    FakeCosts costs({{"dense_bias_act", 10}, {"graph_copy", 3}});
    SearchOptions wide;
    wide.alpha = 10;  // everything is explored
    SearchResult r = search_graph(g, rules, cost_fn(costs), wide);
    CHECK(r.best_cost <= r.initial_cost);
    CHECK(r.generated >= 1);
    CHECK(r.duplicates >= 1);  // splitting the merged graph again gives the input back
    check_same_outputs(g, r.best);

    SearchOptions none;
    none.budget = 0;
    SearchResult z = search_graph(g, rules, cost_fn(costs), none);
    CHECK(z.expanded == 0);
    CHECK(z.generated == 0);
}

TEST_CASE("search: a graph the cost function cannot price is dropped, not fatal") {
    Graph g = graph_of(kTwoDense);
    auto rules = rules_of(kMatmulConcatSplit);
    FakeCosts costs({{"dense_bias_act", 10}, {"graph_copy", 1}});
    SearchResult r = search_graph(g, rules, [&](const Graph &x) {
        if (count_op(x, "concat")) throw GraphError("no cost for the copies");
        return graph_cost(x, costs);
    });
    CHECK(r.failed == 2);  // both merges
    CHECK(r.best_cost == r.initial_cost);
    CHECK(canonical_hash(r.best) == canonical_hash(g));
}
