// Every match of every rule the generator keeps at up to three operators
// (generated in process, a few seconds), applied to a graph full of such
// patterns, computes the same outputs on the reference.
#include "generate.h"
#include "graph_search.h"
#include "joint_test_support.h"

using namespace joint_test;
using namespace ansor_graph;

namespace {

const char *kRichGraph = R"({"name": "rich",
  "inputs": [{"name": "x", "shape": [6, 6]}, {"name": "X", "shape": [1, 5, 5, 4]}],
  "weights": [{"name": "w1", "shape": [6, 6]}, {"name": "w2", "shape": [6, 6]},
              {"name": "W1", "shape": [3, 3, 4, 4]}, {"name": "W2", "shape": [3, 3, 4, 4]}, {"name": "W3", "shape": [1, 1, 4, 4]},
              {"name": "I", "shape": [1, 1, 4, 4], "init": "identity"}],
  "nodes": [{"name": "m1", "op": "matmul", "inputs": ["x", "w1"], "outputs": ["m1"]},
            {"name": "m2", "op": "matmul", "inputs": ["x", "w2"], "outputs": ["m2"]},
            {"name": "s", "op": "add", "inputs": ["m1", "m2"], "outputs": ["s"]},
            {"name": "t", "op": "transpose", "inputs": ["s"], "outputs": ["t"], "attrs": {"perm": [1, 0]}},
            {"name": "tt", "op": "transpose", "inputs": ["t"], "outputs": ["tt"], "attrs": {"perm": [1, 0]}},
            {"name": "r", "op": "relu", "inputs": ["tt"], "outputs": ["r"]},
            {"name": "rr", "op": "relu", "inputs": ["r"], "outputs": ["rr"]},
            {"name": "mm", "op": "mul", "inputs": ["rr", "x"], "outputs": ["mm"]},
            {"name": "cat", "op": "concat", "inputs": ["mm", "x"], "outputs": ["cat"], "attrs": {"axis": 0}},
            {"name": "sp", "op": "split", "inputs": ["cat"], "outputs": ["p0", "p1"], "attrs": {"axis": 0, "sizes": [6, 6]}},
            {"name": "out", "op": "add", "inputs": ["p0", "p1"], "outputs": ["out"]},
            {"name": "e", "op": "enlarge", "inputs": ["W3"], "outputs": ["e"], "attrs": {"kernel": 3}},
            {"name": "k", "op": "add", "inputs": ["W1", "e"], "outputs": ["k"]},
            {"name": "c1", "op": "conv2d", "inputs": ["X", "k"], "outputs": ["c1"], "attrs": {"padding": 1}},
            {"name": "c2", "op": "conv2d", "inputs": ["X", "W2"], "outputs": ["c2"], "attrs": {"padding": 1, "activation": "relu"}},
            {"name": "cc", "op": "concat", "inputs": ["c1", "c2"], "outputs": ["cc"], "attrs": {"axis": 3}},
            {"name": "rc", "op": "relu", "inputs": ["c1"], "outputs": ["rc"]},
            {"name": "a", "op": "add", "inputs": ["rc", "X"], "outputs": ["a"]},
            {"name": "ci", "op": "conv2d", "inputs": ["a", "I"], "outputs": ["ci"]},
            {"name": "c3", "op": "conv2d", "inputs": ["ci", "W3"], "outputs": ["c3"], "attrs": {"stride": 2}}],
  "outputs": ["out", "cc", "c3"]})";

}  // namespace

TEST_CASE("soundness: every match of every generated rule keeps the outputs") {
    taso::GenerateOptions options;
    options.max_ops = 3;
    std::vector<taso::Substitution> subs = taso::generate_substitutions(options).kept;
    REQUIRE(subs.size() > 1000);
    const std::vector<SubstitutionRule> rules = make_rules(subs);
    const Graph g = graph_of(kRichGraph);
    int applied = 0, rules_matched = 0;
    for (const auto &rule : rules) {
        auto matches = find_matches(g, rule, 8);
        rules_matched += !matches.empty();
        for (const auto &m : matches) {
            INFO(m.describe(g));
            Graph h;
            try {
                h = apply_match(g, m);
            } catch (const GraphError &e) {
                // The one refusal allowed: a graph output that would be renamed.
                CHECK(std::string(e.what()).find("would be renamed") != std::string::npos);
                continue;
            }
            check_same_outputs(g, h);
            applied++;
        }
    }
    MESSAGE(rules_matched << " rules matched, " << applied << " rewrites checked");
    CHECK(rules_matched >= 50);
    CHECK(applied >= 100);

    // Chains of rewrites: a wide search checks every graph it costs.
    int costed = 0;
    SearchOptions wide;
    wide.alpha = 1.5;
    wide.budget = 6;
    wide.matches_per_rule = 4;
    SearchResult r = search_graph(g, rules, [&](const Graph &x) {
        check_same_outputs(g, parse_graph(graph_to_json(x), "written"));  // also: every graph writes and loads
        costed++;
        GraphCost c;  // nodes as the cost, kernel calls alike: no ties broken
        c.ms = (double)x.nodes.size();
        return c;
    }, wide);
    MESSAGE(costed << " graphs of the search checked, best " << r.best_cost << " nodes after " << r.steps.size()
                   << " substitutions");
    CHECK(r.expanded == wide.budget);
    CHECK(costed >= 100);
}
