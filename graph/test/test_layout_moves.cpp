// Layout moves (layout_moves.h): each flip computes what the graph did,
// neighbouring flips leave no conversion between them, a region flipped
// back is the graph it was, and the search chooses layouts by cost.
#include "graph_search.h"
#include "graph_test_support.h"
#include "joint_test_support.h"
#include "layout_moves.h"

using namespace joint_test;
using namespace ansor_graph;

namespace {

// x -> c1 (3x3, relu) -> c2 (1x1, bias) -> a = c2 + c1 -> r = relu(a) -> max pool.
const char *kBlock = R"({"name": "block",
  "inputs": [{"name": "x", "shape": [1, 8, 8, 4]}],
  "weights": [{"name": "w1", "shape": [3, 3, 4, 6]}, {"name": "w2", "shape": [1, 1, 6, 6]}, {"name": "b2", "shape": [6]}],
  "nodes": [{"name": "c1", "op": "conv2d", "inputs": ["x", "w1"], "outputs": ["c1"], "attrs": {"padding": 1, "activation": "relu"}},
            {"name": "c2", "op": "conv2d", "inputs": ["c1", "w2", "b2"], "outputs": ["c2"]},
            {"name": "a", "op": "add", "inputs": ["c2", "c1"], "outputs": ["a"]},
            {"name": "r", "op": "relu", "inputs": ["a"], "outputs": ["r"]},
            {"name": "p", "op": "max_pool2d", "inputs": ["r"], "outputs": ["p"], "attrs": {"kernel": 2}}],
  "outputs": ["p"]})";

const LayoutMove &move_named(const std::vector<LayoutMove> &moves, const Graph &g, size_t size, const std::string &first) {
    for (const auto &m : moves)
        if (m.nodes.size() == size && g.nodes[m.nodes[0]].name == first) return m;
    FAIL("no move of " << size << " nodes from " << first);
    return moves.front();
}

int node_index(const Graph &g, const std::string &name) {
    for (size_t i = 0; i < g.nodes.size(); i++)
        if (g.nodes[i].name == name) return (int)i;
    FAIL("no node " << name);
    return -1;
}

}  // namespace

TEST_CASE("layout moves: every convolution alone, and the region of flippable nodes as a whole") {
    Graph g = graph_of(kBlock);
    std::vector<LayoutMove> moves = layout_moves(g);
    REQUIRE(moves.size() == 3);  // c1, c2, {c1, c2, a, r}; the pool cannot change layout
    const LayoutMove &region = move_named(moves, g, 4, "c1");
    CHECK(region.from == Layout::kNHWC);
    CHECK(region.to == Layout::kNCHW);
    for (const LayoutMove &m : moves) {
        INFO(m.describe(g));
        Graph flipped = apply_layout_move(g, m);
        check_same_outputs(g, flipped);
        CHECK(canonical_hash(flipped) != canonical_hash(g));
    }
}

TEST_CASE("layout moves: a flipped region pays one conversion at each boundary, and flipping it back restores the graph") {
    Graph g = graph_of(kBlock);
    std::vector<LayoutMove> moves = layout_moves(g);
    Graph nchw = apply_layout_move(g, move_named(moves, g, 4, "c1"));
    CHECK(count_op(nchw, "transpose") == 2);  // x into NCHW, r back to NHWC for the pool
    for (const Node &n : nchw.nodes)
        if (n.op == "conv2d") CHECK(n.attrs.at("layout") == "NCHW");
    check_same_outputs(g, nchw);

    std::vector<LayoutMove> back = layout_moves(nchw);
    const LayoutMove &region = move_named(back, nchw, 4, "c1");
    CHECK(region.from == Layout::kNCHW);
    Graph restored = apply_layout_move(nchw, region);
    CHECK(count_op(restored, "transpose") == 0);
    CHECK(canonical_hash(restored) == canonical_hash(g));
}

TEST_CASE("layout moves: two neighbours flipped one at a time share their tensor without a conversion") {
    Graph g = graph_of(kBlock);
    Graph one = apply_layout_move(g, {{node_index(g, "c1")}, Layout::kNHWC, Layout::kNCHW});
    CHECK(count_op(one, "transpose") == 2);  // x in, c1 back out (read by c2 and a)
    Graph two = apply_layout_move(one, {{node_index(one, "c2")}, Layout::kNHWC, Layout::kNCHW});
    // c2 reads c1's NCHW result directly; c1's conversion back stays for a.
    const Node &c2 = two.nodes[node_index(two, "c2")];
    const Node &c1 = two.nodes[node_index(two, "c1")];
    CHECK(c2.inputs[0] == c1.outputs[0]);
    CHECK(count_op(two, "transpose") == 3);
    check_same_outputs(g, two);
    // A flipped node that is not in the move's layout is refused by name.
    CHECK_THROWS_WITH_AS(apply_layout_move(two, {{node_index(two, "c2")}, Layout::kNHWC, Layout::kNCHW}),
                         doctest::Contains("'c2'"), GraphError);
}

TEST_CASE("layout moves: an NCHW graph input is read directly by a convolution flipped to NCHW") {
    std::string text = kBlock;
    text.replace(text.find("[1, 8, 8, 4]}"), 13, "[1, 4, 8, 8], \"layout\": \"NCHW\"}");
    Graph g = graph_of(text);  // the loader converts x to NHWC for c1
    CHECK(count_op(g, "transpose") == 1);
    std::vector<LayoutMove> moves = layout_moves(g);
    Graph nchw = apply_layout_move(g, move_named(moves, g, 4, "c1"));
    CHECK(count_op(nchw, "transpose") == 1);  // only r back to NHWC
    CHECK(nchw.nodes[node_index(nchw, "c1")].inputs[0] == "x");
    check_same_outputs(g, nchw);
}

TEST_CASE("layout moves: the executor runs a flipped graph (graph_conv2d_nchw) as the reference does") {
    Graph g = graph_of(kBlock);
    std::vector<LayoutMove> moves = layout_moves(g);
    Graph nchw = apply_layout_move(g, move_named(moves, g, 4, "c1"));
    CHECK(graph_test::worst_error(nchw) < 1e-4);
}

TEST_CASE("search with layouts: NCHW where its kernels are cheaper, NHWC where they are not") {
    Graph g = graph_of(kBlock);
    auto cost = [](FakeCosts &c) { return [&c](const Graph &x) { return graph_cost(x, c); }; };
    SearchOptions with_layouts;
    with_layouts.layouts = true;

    FakeCosts nchw_cheap({{"conv2d_bias_act", 10}, {"graph_conv2d_nchw", 4}, {"graph_transpose", 1}});
    SearchResult r = search_graph(g, {}, cost(nchw_cheap), with_layouts);
    CHECK(r.initial_cost == doctest::Approx(10 + 10 + 1 + 1 + 1));
    CHECK(r.best_cost == doctest::Approx(4 + 4 + 1 + 1 + 1 + 2));  // two conversions
    for (const Node &n : r.best.nodes)
        if (n.op == "conv2d") CHECK(n.attrs.at("layout") == "NCHW");
    check_same_outputs(g, r.best);

    FakeCosts nchw_dear({{"conv2d_bias_act", 10}, {"graph_conv2d_nchw", 11}, {"graph_transpose", 1}});
    SearchResult s = search_graph(g, {}, cost(nchw_dear), with_layouts);
    CHECK(s.steps.empty());
    CHECK(canonical_hash(s.best) == canonical_hash(g));

    // Without layouts the search never leaves NHWC, whatever the costs.
    SearchResult t = search_graph(g, {}, cost(nchw_cheap));
    CHECK(t.generated == 0);
}
