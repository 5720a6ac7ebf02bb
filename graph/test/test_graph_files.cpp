// Graph files: malformed ones give errors naming the node and the field;
// every file of graph/networks loads, shape-checks and lowers (none of the
// big ones is executed here).
#include "graph_test_support.h"

#include "network/task_file.h"
#include "task_listing.h"

#include <algorithm>
#include <dirent.h>

#include <fstream>

using namespace graph_test;

namespace {

// A valid two-node graph that each case below breaks in one place.
json valid_graph() {
    return json::parse(R"({
      "name": "g",
      "inputs": [{"name": "x", "shape": [1, 6, 6, 4]}],
      "weights": [{"name": "w", "shape": [3, 3, 4, 8]}, {"name": "b", "shape": [8]}],
      "nodes": [
        {"name": "c", "op": "conv2d", "inputs": ["x", "w", "b"], "outputs": ["y"], "attrs": {"padding": 1}},
        {"name": "r", "op": "relu", "inputs": ["y"], "outputs": ["z"]}
      ],
      "outputs": ["z"]
    })");
}

std::string error_of(const json &j) {
    try {
        ansor_graph::parse_graph(j, "bad.json");
    } catch (const ansor_graph::GraphError &e) {
        return e.what();
    }
    return "(no error)";
}

std::vector<std::string> network_files() {
    std::vector<std::string> files;
    DIR *d = opendir(ANSOR_GRAPH_NETWORKS_DIR);
    REQUIRE(d);
    while (dirent *e = readdir(d)) {
        std::string n = e->d_name;
        if (n.size() > 5 && n.substr(n.size() - 5) == ".json") files.push_back(std::string(ANSOR_GRAPH_NETWORKS_DIR) + "/" + n);
    }
    closedir(d);
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

TEST_CASE("the valid graph loads with the shapes it implies") {
    Graph g = ansor_graph::parse_graph(valid_graph(), "good.json");
    CHECK(g.tensor("y").shape == Shape{1, 6, 6, 8});
    CHECK(g.tensor("y").layout == ansor_graph::Layout::kNHWC);
    CHECK(g.nodes.size() == 2);
}

TEST_CASE("malformed graphs name the node and the field") {
    struct Case {
        const char *what;
        std::function<void(json &)> breaks;
        std::vector<std::string> says;
    };
    std::vector<Case> cases = {
        {"top-level field", [](json &j) { j["nodez"] = 1; }, {"bad.json", "unknown field 'nodez'"}},
        {"missing nodes", [](json &j) { j.erase("nodes"); }, {"missing field 'nodes'"}},
        {"unknown op", [](json &j) { j["nodes"][0]["op"] = "conv3d"; }, {"node 'c'", "field 'op'", "conv3d"}},
        {"channel mismatch", [](json &j) { j["weights"][0]["shape"] = {3, 3, 5, 8}; },
         {"node 'c' (conv2d)", "input 1 'w'", "dim 2 is 5, expected 4"}},
        {"bias mismatch", [](json &j) { j["weights"][1]["shape"] = {7}; }, {"node 'c' (conv2d)", "'b'", "expected 8"}},
        {"undefined tensor", [](json &j) { j["nodes"][1]["inputs"] = {"nope"}; },
         {"node 'r' (relu)", "field 'inputs'[0]", "'nope'"}},
        {"tensor written twice", [](json &j) { j["nodes"][1]["outputs"] = {"y"}; },
         {"node 'r'", "field 'outputs'[0]", "already defined"}},
        {"unknown attribute", [](json &j) { j["nodes"][0]["attrs"]["strides"] = 2; },
         {"node 'c' (conv2d)", "attribute 'strides' is not an attribute of conv2d"}},
        {"attribute type", [](json &j) { j["nodes"][0]["attrs"]["padding"] = "same"; },
         {"node 'c' (conv2d)", "attribute 'padding' must be"}},
        {"input count", [](json &j) { j["nodes"][1]["inputs"] = {"y", "y"}; }, {"node 'r' (relu)", "takes 1"}},
        {"bad weight shape", [](json &j) { j["weights"][1]["shape"] = {0}; }, {"weights[1] 'b'", "field 'shape'"}},
        {"bad init", [](json &j) { j["weights"][1]["init"] = "normal"; }, {"weights[1] 'b'", "field 'init'"}},
        {"layout on 2-D", [](json &j) { j["inputs"][0] = {{"name", "x"}, {"shape", {6, 4}}, {"layout", "NCHW"}}; },
         {"inputs[0] 'x'", "field 'layout'"}},
        {"window too large", [](json &j) { j["nodes"][0]["attrs"] = {{"padding", 0}, {"dilation", 4}}; },
         {"node 'c' (conv2d)", "output 'y'"}},
        {"undefined output", [](json &j) { j["outputs"] = {"q"}; }, {"field 'outputs'", "'q'"}},
        {"duplicate node", [](json &j) { j["nodes"][1]["name"] = "c"; }, {"node 'c'", "used twice"}},
        {"split sizes", [](json &j) {
             j["nodes"][1] = {{"name", "s"}, {"op", "split"}, {"inputs", {"y"}}, {"outputs", {"p", "q"}},
                              {"attrs", {{"axis", 3}, {"sizes", {3, 4}}}}};
             j["outputs"] = {"p"};
         }, {"node 's' (split)", "the sum of attribute 'sizes'"}},
        {"reshape count", [](json &j) {
             j["nodes"][1] = {{"name", "s"}, {"op", "reshape"}, {"inputs", {"y"}}, {"outputs", {"z"}},
                              {"attrs", {{"shape", {5, -1}}}}};
         }, {"node 's' (reshape)", "attribute 'shape'"}},
        {"reserved name", [](json &j) { j["nodes"][1]["outputs"] = {"z@nhwc"}; },
         {"node 'r' (relu)", "field 'outputs'[0]", "reserved"}},
        {"bad activation", [](json &j) { j["nodes"][0]["attrs"]["activation"] = "tanh"; },
         {"node 'c' (conv2d)", "activation", "tanh"}},
    };
    for (const Case &c : cases) {
        json j = valid_graph();
        c.breaks(j);
        const std::string message = error_of(j);
        INFO(c.what << ": " << message);
        for (const auto &s : c.says) CHECK(message.find(s) != std::string::npos);
    }
}

TEST_CASE("a file that is not JSON, and a missing file") {
    const std::string path = "graph_test_not_json.json";
    std::ofstream(path) << "{\"name\": ";
    try {
        ansor_graph::load_graph(path);
        FAIL("no error");
    } catch (const ansor_graph::GraphError &e) {
        CHECK(std::string(e.what()).find("not valid JSON") != std::string::npos);
    }
    std::remove(path.c_str());
    CHECK_THROWS_WITH_AS(ansor_graph::load_graph("no/such/graph.json"), doctest::Contains("cannot open"),
                         ansor_graph::GraphError);
}

TEST_CASE("values are deterministic: a hash of seed, tensor name and index") {
    Graph g = ansor_graph::parse_graph(valid_graph(), "good.json");
    auto a = ansor_graph::declared_values(g, 1), b = ansor_graph::declared_values(g, 1), c = ansor_graph::declared_values(g, 2);
    CHECK(*a.at("w").storage == *b.at("w").storage);
    CHECK(*a.at("w").storage != *c.at("w").storage);
    const float bound = std::sqrt(6.f / (3 * 3 * 4));
    for (float v : *a.at("w").storage) CHECK(std::fabs(v) <= bound);
}

TEST_CASE("every graph in graph/networks loads, shape-checks, lowers and lists as a valid task file") {
    std::vector<std::string> files = network_files();
    CHECK(files.size() >= 10);
    for (const auto &f : files) {
        INFO(f);
        Graph g = ansor_graph::load_graph(f);
        CHECK(!g.nodes.empty());
        ansor_graph::LoweredGraph l = ansor_graph::lower_graph(g);
        CHECK(!l.calls.empty());
        json tasks = ansor_graph::task_file_of(g);
        ansor::TaskFile parsed = ansor::parse_task_file(tasks, f + " tasks");
        double calls = 0;
        for (const auto &t : parsed.tasks) calls += t.weight;
        const auto per_run = std::count_if(l.calls.begin(), l.calls.end(), [](const auto &c) { return !c.on_weights; });
        CHECK(calls == (double)per_run);
    }
}

TEST_CASE("the distinct kernels of a graph: one task per (generator, params), weighted by calls") {
    Graph g = ansor_graph::load_graph(std::string(ANSOR_GRAPH_NETWORKS_DIR) + "/tiny_transformer.json");
    json tasks = ansor_graph::task_file_of(g);
    int dense_16 = 0;
    for (const auto &t : tasks["tasks"]) {
        if (t["generator"] == "dense_bias_act" && t["params"]["M"] == 16 && t["params"]["K"] == 16) dense_16 = t["weight"];
    }
    CHECK(dense_16 == 4);  // Q, K, V and the output projection
}
