// Layers with a bias (and relu) merged by the biased-layer substitutions:
// matched on the graph's conv2d and dense nodes with three inputs,
// rewritten, and run both on the reference and on the Halide executor.
#include "graph_test_support.h"
#include "joint_test_support.h"

using namespace joint_test;
using namespace ansor_graph;

namespace {

// Taken from `ansor_taso_substitutions` output (families dense_bias and
// conv_bias, four operators).
const char *kDenseBiasMerge = R"({"format": "ansor-taso-substitutions", "version": 1, "substitutions": [
 {"family": "dense_bias",
  "inputs": [{"kind": "tensor", "name": "A", "shape": ["m", "k"]}, {"kind": "weight", "name": "B", "shape": ["k", "n"]},
             {"kind": "weight", "name": "C", "shape": ["k", "p"]}, {"kind": "weight", "name": "b1", "shape": ["n"]},
             {"kind": "weight", "name": "b2", "shape": ["p"]}],
  "outputs": [[0, 0], [1, 1]],
  "source": {"ops": [{"attrs": {"axis": 0}, "op": "concat", "operands": ["b1", "b2"]},
                     {"attrs": {"axis": 1}, "op": "concat", "operands": ["B", "C"]},
                     {"op": "matmul_bias", "operands": ["A", "%1", "%0"]},
                     {"attrs": {"axis": 1}, "left": "n", "op": "split", "operands": ["%2"]}], "outputs": ["%3", "%3.1"]},
  "target": {"ops": [{"op": "matmul_bias", "operands": ["A", "B", "b1"]}, {"op": "matmul_bias", "operands": ["A", "C", "b2"]}],
             "outputs": ["%0", "%1"]}}]})";

const char *kFireMerge = R"({"format": "ansor-taso-substitutions", "version": 1, "substitutions": [
 {"family": "conv_bias",
  "inputs": [{"kind": "tensor", "name": "X", "shape": ["b", "c", "h", "w"]}, {"kind": "weight", "name": "W1", "shape": ["o", "c", "3", "3"]},
             {"kind": "weight", "name": "W3", "shape": ["p", "c", "1", "1"]}, {"kind": "weight", "name": "b1", "shape": ["o"]},
             {"kind": "weight", "name": "b2", "shape": ["p"]}],
  "outputs": [[0, 0]],
  "source": {"ops": [{"attrs": {"kernel": 3}, "op": "enlarge", "operands": ["W3"]},
                     {"attrs": {"axis": 0}, "op": "concat", "operands": ["b2", "b1"]},
                     {"attrs": {"axis": 0}, "op": "concat", "operands": ["%0", "W1"]},
                     {"attrs": {"activation": "relu", "padding": "same", "stride": 1}, "op": "conv2d_bias", "operands": ["X", "%2", "%1"]}],
             "outputs": ["%3"]},
  "target": {"ops": [{"attrs": {"activation": "relu", "padding": "same", "stride": 1}, "op": "conv2d_bias", "operands": ["X", "W1", "b1"]},
                     {"attrs": {"activation": "relu", "padding": "same", "stride": 1}, "op": "conv2d_bias", "operands": ["X", "W3", "b2"]},
                     {"attrs": {"axis": 1}, "op": "concat", "operands": ["%1", "%0"]}], "outputs": ["%2"]}}]})";

// Q, K and V projections of one input, each with a bias; output sizes differ.
const char *kThreeDense = R"({"name": "qkv",
  "inputs": [{"name": "x", "shape": [5, 6]}],
  "weights": [{"name": "wq", "shape": [6, 4]}, {"name": "bq", "shape": [4]},
              {"name": "wk", "shape": [6, 3]}, {"name": "bk", "shape": [3]},
              {"name": "wv", "shape": [6, 7]}, {"name": "bv", "shape": [7]}],
  "nodes": [{"name": "q", "op": "dense", "inputs": ["x", "wq", "bq"], "outputs": ["q"]},
            {"name": "k", "op": "dense", "inputs": ["x", "wk", "bk"], "outputs": ["k"]},
            {"name": "v", "op": "dense", "inputs": ["x", "wv", "bv"], "outputs": ["v"]},
            {"name": "qr", "op": "relu", "inputs": ["q"], "outputs": ["qr"]},
            {"name": "kr", "op": "relu", "inputs": ["k"], "outputs": ["kr"]},
            {"name": "vr", "op": "relu", "inputs": ["v"], "outputs": ["vr"]}],
  "outputs": ["qr", "kr", "vr"]})";

// SqueezeNet's fire module: a 1x1 and a 3x3 layer (bias, relu) on one
// input, concatenated on the channels (1x1 first).
const char *kFire = R"({"name": "fire",
  "inputs": [{"name": "x", "shape": [1, 6, 5, 4]}],
  "weights": [{"name": "w1", "shape": [1, 1, 4, 3]}, {"name": "b1", "shape": [3]},
              {"name": "w3", "shape": [3, 3, 4, 5]}, {"name": "b3", "shape": [5]}],
  "nodes": [{"name": "e1", "op": "conv2d", "inputs": ["x", "w1", "b1"], "outputs": ["e1"], "attrs": {"activation": "relu"}},
            {"name": "e3", "op": "conv2d", "inputs": ["x", "w3", "b3"], "outputs": ["e3"], "attrs": {"padding": 1, "activation": "relu"}},
            {"name": "cat", "op": "concat", "inputs": ["e1", "e3"], "outputs": ["cat"], "attrs": {"axis": -1}}],
  "outputs": ["cat"]})";

// text with its one occurrence of `from` replaced by `to`.
std::string replaced(std::string text, const std::string &from, const std::string &to) {
    const size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

const SubstitutionRule &reversed_rule(const std::vector<SubstitutionRule> &rules) {
    for (const auto &r : rules)
        if (r.reversed) return r;
    FAIL("no reversed rule");
    throw;
}

}  // namespace

TEST_CASE("bias merges: three dense layers with biases become one, then split") {
    Graph g = graph_of(kThreeDense);
    auto rules = rules_of(kDenseBiasMerge);
    const SubstitutionRule &merge = reversed_rule(rules);
    auto first = find_matches(g, merge);
    REQUIRE(first.size() == 6);  // each ordered pair of the three layers
    Graph h = apply_match(g, first[0]);
    CHECK(count_op(h, "dense") == 2);
    check_same_outputs(g, h);
    // The merged layer merges again with the third.
    auto second = find_matches(h, merge);
    REQUIRE(!second.empty());
    Graph k = apply_match(h, second[0]);
    CHECK(count_op(k, "dense") == 1);
    CHECK(count_op(k, "split") == 2);
    check_same_outputs(g, k);
    CHECK(graph_test::worst_error(k) < 1e-4);
}

TEST_CASE("bias merges: a layer without a bias, or with another activation, is not matched") {
    // k loses its bias and v gets a relu fused: q is left with no partner.
    std::string text = replaced(kThreeDense, R"(["x", "wk", "bk"])", R"(["x", "wk"])");
    text = replaced(text, R"(["x", "wv", "bv"], "outputs": ["v"]})",
                    R"(["x", "wv", "bv"], "outputs": ["v"], "attrs": {"activation": "relu"}})");
    Graph g = graph_of(text);
    CHECK(find_matches(g, reversed_rule(rules_of(kDenseBiasMerge))).empty());
}

TEST_CASE("bias merges: a fire module becomes one 3x3 layer over an enlarged, stacked kernel") {
    Graph g = graph_of(kFire);
    auto rules = rules_of(kFireMerge);  // matches point into it
    auto matches = find_matches(g, reversed_rule(rules));
    REQUIRE(matches.size() == 1);
    Graph h = apply_match(g, matches[0]);
    CHECK(count_op(h, "conv2d") == 1);
    CHECK(count_op(h, "enlarge") == 1);
    check_same_outputs(g, h);
    CHECK(graph_test::worst_error(h) < 1e-4);
    // The same module with the 1x1 layer's relu left out is not a match.
    Graph v = graph_of(replaced(kFire, R"(["e1"], "attrs": {"activation": "relu"})", R"(["e1"])"));
    CHECK(find_matches(v, reversed_rule(rules)).empty());
}
