// The small networks of graph/networks run end to end on the executor and
// match the reference at every tensor.
#include "graph_test_support.h"

using namespace graph_test;

namespace {
Graph network(const std::string &name) {
    return ansor_graph::load_graph(std::string(ANSOR_GRAPH_NETWORKS_DIR) + "/" + name + ".json");
}
}  // namespace

TEST_CASE("tiny_cnn: conv, batch norm, relu, split, concat, pools, dense, softmax") {
    CHECK(worst_error(network("tiny_cnn")) < 1e-4);
}

TEST_CASE("tiny_ops: NCHW input, grouped/depthwise/dilated/transposed convs, enlarge, activations") {
    CHECK(worst_error(network("tiny_ops")) < 1e-4);
}

TEST_CASE("tiny_transformer: one encoder layer") {
    CHECK(worst_error(network("tiny_transformer")) < 1e-4);
}

TEST_CASE("a second run gives the same outputs, and kernels are shared between nodes") {
    Graph g = network("tiny_transformer");
    ansor_graph::GraphExecutor exec(g, {});
    CHECK(exec.kernels().size() < exec.call_count());
    for (const auto &k : exec.kernels()) CHECK(k.source == "default");
    exec.bind(ansor_graph::declared_values(g, 3));
    exec.run();
    std::vector<float> first = *exec.tensors().at(g.outputs[0]).storage;
    exec.run();
    CHECK(first == *exec.tensors().at(g.outputs[0]).storage);
}
