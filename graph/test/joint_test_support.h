#pragma once
// Helpers of the graph optimiser's tests: graphs and substitutions written
// in code, a fake kernel cost provider, and the reference run before and
// after a rewrite.
#include "graph_cost.h"
#include "graph_edit.h"
#include "graph_json.h"
#include "output_check.h"
#include "reference_ops.h"
#include "substitution_match.h"

#include <doctest/doctest.h>

namespace joint_test {

using ansor_graph::Graph;
using nlohmann::json;

inline Graph graph_of(const std::string &text) { return ansor_graph::parse_graph(json::parse(text), "test graph"); }

inline std::vector<ansor_graph::SubstitutionRule> rules_of(const std::string &substitutions_json) {
    return ansor_graph::make_rules(taso::parse_substitutions(substitutions_json, "test substitutions"));
}

// Every output of `before` computed by the reference on `after` (same
// inputs and weights, so the same values) within the float tolerance.
inline void check_same_outputs(const Graph &before, const Graph &after, uint64_t seed = 3) {
    ansor_graph::TensorMap a = ansor_graph::declared_values(before, seed);
    ansor_graph::TensorMap b = ansor_graph::declared_values(after, seed);
    ansor_graph::run_reference(before, a);
    ansor_graph::run_reference(after, b);
    REQUIRE(before.outputs == after.outputs);
    for (const auto &o : before.outputs) {
        ansor_graph::TensorCheck c = ansor_graph::check_tensor(o, b.at(o), a.at(o));
        INFO("output " << o << " error " << c.error << " scale " << c.scale);
        CHECK(c.scale > 0);
        CHECK(c.ok(1e-5));
    }
}

inline int count_op(const Graph &g, const std::string &op) {
    int n = 0;
    for (const auto &node : g.nodes) n += node.op == op;
    return n;
}

// Kernel costs by generator name; 1 ms for any other generator.
class FakeCosts : public ansor_graph::KernelCostProvider {
public:
    explicit FakeCosts(std::map<std::string, double> by_generator) : by_generator_(std::move(by_generator)) {}
    std::optional<ansor_graph::KernelCost> cost(const ansor_graph::KernelCall &call) override {
        asked++;
        auto it = by_generator_.find(call.generator);
        return ansor_graph::KernelCost{it == by_generator_.end() ? 1.0 : it->second, "fake"};
    }
    int asked = 0;

private:
    std::map<std::string, double> by_generator_;
};

// Substitutions as ansor_taso_substitutions writes them (taken from its
// --max-ops 3 output).
inline const char *kMatmulConcatSplit = R"({"format": "ansor-taso-substitutions", "version": 1, "substitutions": [
 {"constraints": {"k": ["A.1", "B.0", "C.0"], "m": ["A.0"], "n": ["B.1", "C.1"]}, "family": "matrix",
  "inputs": [{"kind": "tensor", "name": "A", "shape": ["m", "k"]}, {"kind": "tensor", "name": "B", "shape": ["k", "n"]},
             {"kind": "tensor", "name": "C", "shape": ["k", "n"]}],
  "outputs": [[0, 0], [1, 1]],
  "source": {"ops": [{"attrs": {"axis": 1}, "op": "concat", "operands": ["B", "C"]}, {"op": "matmul", "operands": ["A", "%0"]},
                     {"attrs": {"axis": 1}, "left": "n", "op": "split", "operands": ["%1"]}], "outputs": ["%2", "%2.1"]},
  "target": {"ops": [{"op": "matmul", "operands": ["A", "B"]}, {"op": "matmul", "operands": ["A", "C"]}], "outputs": ["%0", "%1"]}}]})";

inline const char *kMatmulDistributes = R"({"format": "ansor-taso-substitutions", "version": 1, "substitutions": [
 {"constraints": {"k": ["A.1", "B.0", "C.0"], "m": ["A.0"], "n": ["B.1", "C.1"]}, "family": "matrix",
  "inputs": [{"kind": "tensor", "name": "A", "shape": ["m", "k"]}, {"kind": "tensor", "name": "B", "shape": ["k", "n"]},
             {"kind": "tensor", "name": "C", "shape": ["k", "n"]}],
  "outputs": [[0, 0]],
  "source": {"ops": [{"op": "matmul", "operands": ["A", "B"]}, {"op": "matmul", "operands": ["A", "C"]},
                     {"op": "ewadd", "operands": ["%0", "%1"]}], "outputs": ["%2"]},
  "target": {"ops": [{"op": "ewadd", "operands": ["B", "C"]}, {"op": "matmul", "operands": ["A", "%0"]}], "outputs": ["%1"]}}]})";

inline const char *kTransposeRules = R"({"format": "ansor-taso-substitutions", "version": 1, "substitutions": [
 {"constraints": {"k": ["A.1"], "m": ["A.0"]}, "family": "matrix",
  "inputs": [{"kind": "tensor", "name": "A", "shape": ["m", "k"]}], "outputs": [[0, 0]],
  "source": {"ops": [{"op": "transpose", "operands": ["A"]}, {"op": "transpose", "operands": ["%0"]}], "outputs": ["%1"]},
  "target": {"ops": [], "outputs": ["A"]}},
 {"constraints": {"k": ["A.1", "B.0"], "m": ["A.0"], "n": ["B.1"]}, "family": "matrix",
  "inputs": [{"kind": "tensor", "name": "A", "shape": ["m", "k"]}, {"kind": "tensor", "name": "B", "shape": ["k", "n"]}],
  "outputs": [[0, 0]],
  "source": {"ops": [{"op": "transpose", "operands": ["A"]}, {"op": "transpose", "operands": ["B"]},
                     {"op": "matmul", "operands": ["%1", "%0"]}], "outputs": ["%2"]},
  "target": {"ops": [{"op": "matmul", "operands": ["A", "B"]}, {"op": "transpose", "operands": ["%0"]}], "outputs": ["%1"]}}]})";

inline const char *kConvKernelConcat = R"({"format": "ansor-taso-substitutions", "version": 1, "substitutions": [
 {"constraints": {"b": ["X.0"], "c": ["X.1", "W1.0", "W1.1", "W2.0", "W2.1"], "h": ["X.2"], "w": ["X.3"]}, "family": "conv",
  "inputs": [{"kind": "tensor", "name": "X", "shape": ["b", "c", "h", "w"]},
             {"kind": "weight", "name": "W1", "shape": ["c", "c", "3", "3"]},
             {"kind": "weight", "name": "W2", "shape": ["c", "c", "3", "3"]}],
  "outputs": [[0, 0]],
  "source": {"ops": [{"attrs": {"activation": "none", "padding": "same", "stride": 1}, "op": "conv2d", "operands": ["X", "W1"]},
                     {"attrs": {"activation": "none", "padding": "same", "stride": 1}, "op": "conv2d", "operands": ["X", "W2"]},
                     {"attrs": {"axis": 1}, "op": "concat", "operands": ["%0", "%1"]}], "outputs": ["%2"]},
  "target": {"ops": [{"attrs": {"axis": 0}, "op": "concat", "operands": ["W1", "W2"]},
                     {"attrs": {"activation": "none", "padding": "same", "stride": 1}, "op": "conv2d", "operands": ["X", "%0"]}],
             "outputs": ["%1"]}}]})";

// Residual fusion: conv2d(X, W1 + enlarge(I)) = X + conv2d(X, W1).
inline const char *kResidual = R"({"format": "ansor-taso-substitutions", "version": 1, "substitutions": [
 {"constraints": {"b": ["X.0"], "c": ["X.1", "W1.0", "W1.1", "I.0", "I.1"], "h": ["X.2"], "w": ["X.3"]}, "family": "conv",
  "inputs": [{"kind": "tensor", "name": "X", "shape": ["b", "c", "h", "w"]},
             {"kind": "weight", "name": "W1", "shape": ["c", "c", "3", "3"]},
             {"kind": "identity_kernel", "name": "I", "shape": ["c", "c", "1", "1"]}],
  "outputs": [[0, 0]],
  "source": {"ops": [{"attrs": {"kernel": 3}, "op": "enlarge", "operands": ["I"]}, {"op": "ewadd", "operands": ["W1", "%0"]},
                     {"attrs": {"activation": "none", "padding": "same", "stride": 1}, "op": "conv2d", "operands": ["X", "%1"]}],
             "outputs": ["%2"]},
  "target": {"ops": [{"attrs": {"activation": "none", "padding": "same", "stride": 1}, "op": "conv2d", "operands": ["X", "W1"]},
                     {"op": "ewadd", "operands": ["X", "%0"]}], "outputs": ["%1"]}}]})";

// Two matmuls (one written as a dense node) sharing their input.
inline const char *kTwoDense = R"({"name": "two_dense",
  "inputs": [{"name": "x", "shape": [4, 8]}],
  "weights": [{"name": "w1", "shape": [8, 6]}, {"name": "w2", "shape": [8, 6]}],
  "nodes": [{"name": "d1", "op": "matmul", "inputs": ["x", "w1"], "outputs": ["d1"]},
            {"name": "d2", "op": "dense", "inputs": ["x", "w2"], "outputs": ["d2"]},
            {"name": "r1", "op": "relu", "inputs": ["d1"], "outputs": ["r1"]}],
  "outputs": ["r1", "d2"]})";

}  // namespace joint_test
