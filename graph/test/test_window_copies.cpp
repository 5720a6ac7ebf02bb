// Last-axis concat and split parts kept inside the whole: the copies go
// where every kernel keeps a part's rows intact, stay where one does not,
// and the values (outputs and every intermediate, parts included) match the
// reference either way.
#include "graph_test_support.h"

using namespace graph_test;
using ansor_graph::Graph;

namespace {

int copies(const Graph &g) {
    int n = 0;
    for (const auto &c : ansor_graph::lower_graph(g).calls) n += c.generator == "graph_copy";
    return n;
}

// x -> conv a (3 channels), conv b (5 channels) -> concat -> split (4, 4)
// -> conv on the first part; READER reads the second part.
const char *kConcatSplit = R"({"name": "windows",
  "inputs": [{"name": "x", "shape": [1, 6, 5, 4]}],
  "weights": [{"name": "wa", "shape": [1, 1, 4, 3]}, {"name": "wb", "shape": [3, 3, 4, 5]},
              {"name": "wc", "shape": [3, 3, 4, 2]}, {"name": "half", "shape": [1, 6, 5, 4]}],
  "nodes": [{"name": "a", "op": "conv2d", "inputs": ["x", "wa"], "outputs": ["a"]},
            {"name": "b", "op": "conv2d", "inputs": ["x", "wb"], "outputs": ["b"], "attrs": {"padding": 1}},
            {"name": "cat", "op": "concat", "inputs": ["a", "b"], "outputs": ["cat"]},
            {"name": "sp", "op": "split", "inputs": ["cat"], "outputs": ["p0", "p1"], "attrs": {"sizes": [4, 4]}},
            {"name": "c", "op": "conv2d", "inputs": ["p0", "wc"], "outputs": ["c"], "attrs": {"padding": 1}},
            READER],
  "outputs": ["c", "r"]})";

Graph graph_with(const std::string &reader) {
    std::string t = kConcatSplit;
    t.replace(t.find("READER"), 6, reader);
    return ansor_graph::parse_graph(nlohmann::json::parse(t), "windows");
}

}  // namespace

TEST_CASE("window copies: parts read and written by convolutions and pools need no copy") {
    Graph g = graph_with(R"({"name": "r", "op": "max_pool2d", "inputs": ["p1"], "outputs": ["r"], "attrs": {"kernel": 1}})");
    CHECK(copies(g) == 0);  // the concat's two and the split's two are gone
    CHECK(ansor_graph::lower_graph(g).windows.size() == 4);
    CHECK(worst_error(g) < 1e-4);
}

TEST_CASE("window copies: a part read as a flat array keeps its copy") {
    // An elementwise kernel reads p1 as one long row: that part is copied,
    // the others are not.
    Graph g = graph_with(R"({"name": "r", "op": "add", "inputs": ["p1", "half"], "outputs": ["r"]})");
    CHECK(copies(g) == 1);
    CHECK(ansor_graph::lower_graph(g).windows.count("p1") == 0);
    CHECK(worst_error(g) < 1e-4);
}

TEST_CASE("window copies: a part that is a graph output keeps its copy") {
    Graph g = graph_with(R"({"name": "r", "op": "max_pool2d", "inputs": ["p1"], "outputs": ["r"], "attrs": {"kernel": 1}})");
    g.outputs.push_back("a");
    CHECK(copies(g) == 1);
    CHECK(worst_error(g) < 1e-4);
}
