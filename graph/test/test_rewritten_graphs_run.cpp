// Rewritten graphs run on the Halide executor (default schedules) and agree
// with the reference: kernels over derived weights (concatenated, summed,
// enlarged, identity) and the copies of concat and split.
#include "graph_test_support.h"
#include "joint_test_support.h"
#include "task_listing.h"

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

namespace {

const char *kConvPair = R"({"name": "conv_pair",
  "inputs": [{"name": "x", "shape": [1, 6, 5, 4]}],
  "weights": [{"name": "w1", "shape": [3, 3, 4, 4]}, {"name": "w2", "shape": [3, 3, 4, 4]}],
  "nodes": [{"name": "c1", "op": "conv2d", "inputs": ["x", "w1"], "outputs": ["c1"], "attrs": {"padding": 1}},
            {"name": "c2", "op": "conv2d", "inputs": ["x", "w2"], "outputs": ["c2"], "attrs": {"padding": 1}},
            {"name": "cat", "op": "concat", "inputs": ["c1", "c2"], "outputs": ["cat"], "attrs": {"axis": 3}}],
  "outputs": ["cat"]})";

// The merged graph's concat node: it concatenates the kernels.
const Node &kernel_concat(const Graph &h) {
    for (const auto &n : h.nodes) {
        if (n.op == "concat") return n;
    }
    FAIL("no concat node");
    throw;
}

}  // namespace

TEST_CASE("executor: two convolutions merged over concatenated kernels") {
    Graph h = rewritten(graph_of(kConvPair), kConvKernelConcat, false);
    CHECK(count_op(h, "conv2d") == 1);
    CHECK(graph_test::worst_error(h) < 1e-4);
}

TEST_CASE("lowering: calls on weights only are marked, left out of the cost and of the task file") {
    Graph g = graph_of(kConvPair);
    for (const KernelCall &c : lower_graph(g).calls) CHECK(!c.on_weights);
    Graph h = rewritten(g, kConvKernelConcat, false);
    const std::string concat_node = kernel_concat(h).name;
    int marked = 0, per_run = 0;
    for (const KernelCall &c : lower_graph(h).calls) {
        CHECK(c.on_weights == (c.node == concat_node));  // the kernels' copies, and nothing that reads x
        (c.on_weights ? marked : per_run)++;
    }
    CHECK(marked == 2);  // one copy per concatenated part
    FakeCosts costs({{"conv2d_bias_act", 10}, {"graph_copy", 1}});
    GraphCost cost = graph_cost(h, costs);
    CHECK(cost.load_calls == 2);
    CHECK(cost.calls == per_run);
    CHECK(costs.asked == per_run);
    CHECK(cost.ms == doctest::Approx(10));  // the merged convolution; its output is the graph's output
    const nlohmann::json tasks = task_file_of(h);
    REQUIRE(tasks["tasks"].size() == 1);
    CHECK(tasks["tasks"][0]["generator"] == "conv2d_bias_act");
}

TEST_CASE("executor: derived kernels are made once, when the weights are bound") {
    Graph h = rewritten(graph_of(kConvPair), kConvKernelConcat, false);
    const std::string kernels = kernel_concat(h).outputs.at(0);
    TensorMap ref = declared_values(h, 5);
    GraphExecutor exec(h, {});
    CHECK(exec.load_call_count() == 2);
    CHECK(exec.call_count() == lower_graph(h).calls.size() - 2);
    exec.bind(ref);
    run_reference(h, ref);
    // Before any run, bind() has already concatenated the kernels.
    TensorCheck bound = check_tensor(kernels, exec.tensors().at(kernels), ref.at(kernels));
    CHECK(bound.scale > 0);
    CHECK(bound.ok(1e-6));
    exec.run();
    const std::string out = h.outputs.at(0);
    TensorCheck first = check_tensor(out, exec.tensors().at(out), ref.at(out));
    CHECK(first.ok(1e-4));
    exec.run();  // again, on the kernels bind() made
    CHECK(check_tensor(out, exec.tensors().at(out), ref.at(out)).ok(1e-4));
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
