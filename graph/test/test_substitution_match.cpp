// Matching and applying TASO substitutions on graphs; every rewrite is
// checked against the reference before and after.
#include "joint_test_support.h"

using namespace joint_test;
using namespace ansor_graph;

namespace {

// The rule of `rules` with this direction.
const SubstitutionRule &rule(const std::vector<SubstitutionRule> &rules, int index, bool reversed) {
    for (const auto &r : rules)
        if (r.index == index && r.reversed == reversed) return r;
    FAIL("no rule " << index << (reversed ? " reversed" : ""));
    throw;
}

const char *kConvPair = R"({"name": "conv_pair",
  "inputs": [{"name": "x", "shape": [1, 6, 5, 4]}],
  "weights": [{"name": "w1", "shape": [3, 3, 4, 4]}, {"name": "w2", "shape": [3, 3, 4, 4]}],
  "nodes": [{"name": "c1", "op": "conv2d", "inputs": ["x", "w1"], "outputs": ["c1"], "attrs": {"padding": PAD}},
            {"name": "c2", "op": "conv2d", "inputs": ["x", "w2"], "outputs": ["c2"], "attrs": {"padding": PAD}},
            {"name": "cat", "op": "concat", "inputs": ["c1", "c2"], "outputs": ["cat"], "attrs": {"axis": AXIS}}],
  "outputs": ["cat"]})";

Graph conv_pair(int pad, int axis) {
    std::string t = kConvPair;
    for (size_t at; (at = t.find("PAD")) != std::string::npos;) t.replace(at, 3, std::to_string(pad));
    t.replace(t.find("AXIS"), 4, std::to_string(axis));
    return graph_of(t);
}

}  // namespace

TEST_CASE("rules: both directions; zero-operator sides are not matched") {
    RuleSetStats stats;
    auto rules = make_rules(taso::parse_substitutions(kTransposeRules), &stats);
    CHECK(stats.substitutions == 2);
    // transpose(transpose(A)) = A: only forward (A alone would match every tensor).
    CHECK(stats.rules == 3);
    CHECK(stats.skipped_other == 1);
}

TEST_CASE("two matmuls sharing an input merge into one over concatenated weights") {
    Graph g = graph_of(kTwoDense);
    auto rules = rules_of(kMatmulConcatSplit);
    CHECK(find_matches(g, rule(rules, 0, false)).empty());  // no concat/matmul/split to split up
    auto matches = find_matches(g, rule(rules, 0, true));
    REQUIRE(matches.size() == 2);  // (B, C) = (w1, w2) and (w2, w1)
    for (const auto &m : matches) {
        Graph h = apply_match(g, m);
        CHECK(count_op(h, "matmul") + count_op(h, "dense") == 1);
        CHECK(count_op(h, "concat") == 1);
        CHECK(count_op(h, "split") == 1);
        check_same_outputs(g, h);
        // And back: the forward rule splits it again.
        auto back = find_matches(h, rule(rules, 0, false));
        REQUIRE(back.size() == 1);
        Graph k = apply_match(h, back[0]);
        CHECK(count_op(k, "concat") == 0);
        check_same_outputs(g, k);
    }
}

TEST_CASE("shape constraints are checked at the graph's sizes") {
    std::string text = kTwoDense;
    text.replace(text.find("\"w2\", \"shape\": [8, 6]"), 21, "\"w2\", \"shape\": [8, 5]");
    Graph g = graph_of(text);
    auto rules = rules_of(kMatmulConcatSplit);
    CHECK(find_matches(g, rule(rules, 0, true)).empty());  // B [k,n] and C [k,n] need equal n
}

TEST_CASE("a match whose intermediate result is used elsewhere is not rewritten") {
    const std::string base = R"({"name": "dist",
      "inputs": [{"name": "x", "shape": [3, 5]}],
      "weights": [{"name": "w1", "shape": [5, 4]}, {"name": "w2", "shape": [5, 4]}],
      "nodes": [{"name": "m1", "op": "matmul", "inputs": ["x", "w1"], "outputs": ["m1"]},
                {"name": "m2", "op": "matmul", "inputs": ["x", "w2"], "outputs": ["m2"]},
                {"name": "s", "op": "add", "inputs": ["m1", "m2"], "outputs": ["s"]}],
      "outputs": OUTS})";
    auto rules = rules_of(kMatmulDistributes);
    std::string only_sum = base, also_m1 = base;
    only_sum.replace(only_sum.find("OUTS"), 4, R"(["s"])");
    also_m1.replace(also_m1.find("OUTS"), 4, R"(["s", "m1"])");
    Graph g = graph_of(only_sum);
    auto matches = find_matches(g, rule(rules, 0, false));
    REQUIRE(matches.size() == 2);  // add is commutative: both operand orders
    Graph h = apply_match(g, matches[0]);
    CHECK(count_op(h, "matmul") == 1);
    CHECK(h.nodes.back().outputs[0] == "s");  // the new producer keeps the output's name
    check_same_outputs(g, h);
    CHECK(find_matches(graph_of(also_m1), rule(rules, 0, false)).empty());
}

TEST_CASE("conv2d: channel concat of two convolutions = one convolution over concatenated kernels (NHWC axes)") {
    auto rules = rules_of(kConvKernelConcat);
    Graph g = conv_pair(1, 3);  // channels of NHWC are axis 3 (taso's axis 1)
    auto matches = find_matches(g, rule(rules, 0, false));
    REQUIRE(matches.size() == 1);
    Graph h = apply_match(g, matches[0]);
    CHECK(count_op(h, "conv2d") == 1);
    REQUIRE(count_op(h, "concat") == 1);
    for (const auto &n : h.nodes) {
        if (n.op != "concat") continue;
        CHECK(n.inputs == std::vector<std::string>{"w1", "w2"});
        CHECK(n.attrs["axis"] == 3);  // taso's kernel axis 0 (output channels) is CO, the graph's axis 3
    }
    check_same_outputs(g, h);
    // And back.
    auto back = find_matches(h, rule(rules, 0, true));
    REQUIRE(back.size() == 1);
    check_same_outputs(g, apply_match(h, back[0]));
    // Not a match: a concat over H, or a convolution without "same" padding.
    CHECK(find_matches(conv_pair(1, 1), rule(rules, 0, false)).empty());
    CHECK(find_matches(conv_pair(0, 3), rule(rules, 0, false)).empty());
}

TEST_CASE("graph files: a rewritten graph is written and loads back with the same hash") {
    Graph g = graph_of(kTwoDense);
    auto rules = rules_of(kMatmulConcatSplit);
    Graph h = apply_match(g, find_matches(g, rule(rules, 0, true)).at(0));
    Graph back = parse_graph(graph_to_json(h), "written");
    CHECK(canonical_hash(back) == canonical_hash(h));
    CHECK(canonical_hash(h) != canonical_hash(g));
    // Layout conversions the loader added ('@' names) are written loadably.
    Graph ops = load_graph(ANSOR_GRAPH_NETWORKS_DIR "/tiny_ops.json");
    Graph ops_back = parse_graph(graph_to_json(ops), "written tiny_ops");
    CHECK(ops_back.nodes.size() == ops.nodes.size());
    check_same_outputs(ops, ops_back);
}

TEST_CASE("canonical hash ignores node and intermediate names") {
    Graph g = graph_of(kTwoDense);
    std::string renamed = kTwoDense;
    for (size_t at; (at = renamed.find("\"d1\"")) != std::string::npos;) renamed.replace(at, 4, "\"first\"");
    CHECK(canonical_hash(graph_of(renamed)) == canonical_hash(g));
    Graph other = g;
    other.nodes[2].op = "relu6";
    CHECK(canonical_hash(other) != canonical_hash(g));
}

TEST_CASE("rebuild_graph restores a topological order and rejects a cycle") {
    Graph g = graph_of(kTwoDense);
    std::vector<Node> reversed(g.nodes.rbegin(), g.nodes.rend());
    Graph h = rebuild_graph(g, reversed);
    CHECK(h.nodes[0].name == "d2");  // list order where the dependences allow
    CHECK(h.nodes[2].name == "r1");
    std::vector<Node> cyc = g.nodes;
    cyc[0].inputs[0] = "r1";
    CHECK_THROWS_AS(rebuild_graph(g, cyc), GraphError);
}

TEST_CASE("residual fusion: an identity kernel is created as a weight, and matched only as one") {
    auto rules = rules_of(kResidual);
    REQUIRE(rules.size() == 2);
    Graph g = graph_of(R"({"name": "residual",
      "inputs": [{"name": "x", "shape": [1, 5, 6, 4]}],
      "weights": [{"name": "w", "shape": [3, 3, 4, 4]}, {"name": "not_identity", "shape": [1, 1, 4, 4], "init": "ones"}],
      "nodes": [{"name": "c", "op": "conv2d", "inputs": ["x", "w"], "outputs": ["c"], "attrs": {"padding": 1}},
                {"name": "y", "op": "add", "inputs": ["x", "c"], "outputs": ["y"]},
                {"name": "e", "op": "enlarge", "inputs": ["not_identity"], "outputs": ["e"], "attrs": {"kernel": 3}},
                {"name": "s", "op": "add", "inputs": ["w", "e"], "outputs": ["s"]},
                {"name": "z", "op": "conv2d", "inputs": ["y", "s"], "outputs": ["z"], "attrs": {"padding": 1}}],
      "outputs": ["z"]})");
    // Forward: 'not_identity' is no identity kernel, so z is not a match.
    CHECK(find_matches(g, rule(rules, 0, false)).empty());
    auto fuse = find_matches(g, rule(rules, 0, true));
    REQUIRE(fuse.size() == 1);
    Graph h = apply_match(g, fuse[0]);
    REQUIRE(h.weights.size() == 3);
    const TensorInfo &id = h.tensor(h.weights.back());
    CHECK(id.init == "identity");
    CHECK(id.shape == Shape{1, 1, 4, 4});
    check_same_outputs(g, h);
    Graph back = parse_graph(graph_to_json(h), "written");  // "identity" loads
    check_same_outputs(g, back);
    // Forward on the fused graph binds the created identity kernel and
    // drops it once nothing reads it.
    auto unfuse = find_matches(h, rule(rules, 0, false));
    REQUIRE(unfuse.size() == 1);
    Graph k = apply_match(h, unfuse[0]);
    CHECK(k.weights.size() == 2);
    check_same_outputs(g, k);
}
