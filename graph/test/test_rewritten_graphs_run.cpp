// Rewritten graphs run on the Halide executor (default schedules) and agree
// with the reference: kernels over derived weights (concatenated, summed,
// enlarged, identity) and the copies of concat and split.
#include "graph_test_support.h"
#include "joint_test_support.h"

using namespace joint_test;
using namespace ansor_graph;

namespace {

Graph rewritten(const Graph &g, const char *substitutions, bool reversed) {
    auto rules = rules_of(substitutions);
    for (const auto &r : rules) {
        if (r.reversed != reversed) continue;
        auto matches = find_matches(g, r);
        REQUIRE(!matches.empty());
        return apply_match(g, matches[0]);
    }
    FAIL("no rule");
    throw;
}

}  // namespace

TEST_CASE("executor: two matmuls merged over concatenated weights") {
    Graph g = graph_of(kTwoDense);
    Graph h = rewritten(g, kMatmulConcatSplit, true);
    CHECK(count_op(h, "concat") == 1);
    CHECK(graph_test::worst_error(h) < 1e-4);
}

TEST_CASE("executor: two convolutions merged over concatenated kernels") {
    Graph g = graph_of(R"({"name": "conv_pair",
      "inputs": [{"name": "x", "shape": [1, 6, 5, 4]}],
      "weights": [{"name": "w1", "shape": [3, 3, 4, 4]}, {"name": "w2", "shape": [3, 3, 4, 4]}],
      "nodes": [{"name": "c1", "op": "conv2d", "inputs": ["x", "w1"], "outputs": ["c1"], "attrs": {"padding": 1}},
                {"name": "c2", "op": "conv2d", "inputs": ["x", "w2"], "outputs": ["c2"], "attrs": {"padding": 1}},
                {"name": "cat", "op": "concat", "inputs": ["c1", "c2"], "outputs": ["cat"], "attrs": {"axis": 3}}],
      "outputs": ["cat"]})");
    Graph h = rewritten(g, kConvKernelConcat, false);
    CHECK(count_op(h, "conv2d") == 1);
    CHECK(graph_test::worst_error(h) < 1e-4);
}

TEST_CASE("executor: a residual addition folded into the kernel with a created identity kernel") {
    Graph g = graph_of(R"({"name": "residual",
      "inputs": [{"name": "x", "shape": [1, 5, 6, 4]}],
      "weights": [{"name": "w", "shape": [3, 3, 4, 4]}],
      "nodes": [{"name": "c", "op": "conv2d", "inputs": ["x", "w"], "outputs": ["c"], "attrs": {"padding": 1}},
                {"name": "y", "op": "add", "inputs": ["x", "c"], "outputs": ["y"]}],
      "outputs": ["y"]})");
    Graph h = rewritten(g, kResidual, true);
    CHECK(count_op(h, "enlarge") == 1);
    check_same_outputs(g, h);
    CHECK(graph_test::worst_error(h) < 1e-4);
}
