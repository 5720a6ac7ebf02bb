// The small networks of graph/networks run end to end on the executor and
// match the reference at every tensor.
#include "graph_test_support.h"

#include "dag/pipeline_dag.h"
#include "records/pipeline_key.h"
#include "records/tuning_log.h"

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

TEST_CASE("a tuning log's record schedules the kernel it was measured for; others keep the default") {
    json two = one_node_graph("relu", {{"x", {4, 33}}}, {});
    two["nodes"].push_back({{"name", "m"}, {"op", "sigmoid"}, {"inputs", {"y"}}, {"outputs", {"z"}}});
    two["outputs"] = {"z"};
    Graph g = ansor_graph::parse_graph(two, "test");
    // A record for the relu kernel: the empty program (Halide's defaults), as tuning would log it.
    ansor_graph::ExecutorOptions options;
    const std::string log_path = "graph_test_log.jsonl";
    std::remove(log_path.c_str());
    const ansor_graph::KernelCall call = ansor_graph::lower_graph(g).calls.at(0);
    REQUIRE(call.generator == "graph_activation");
    const Halide::Target target(options.target);
    ansor::GeneratorPipeline p = ansor::build_generator_pipeline(call.generator, call.params, target);
    ansor::PipelineDAG dag(p.outputs(), options.threads);
    ansor::MeasureResult result;
    result.ok = true;
    result.min_ms = result.median_ms = 0.25;
    result.runs = 1;
    ansor::TuningLog(log_path).append(ansor::make_pipeline_key(dag), target, ansor::State(dag), result);
    options.log_path = log_path;

    ansor_graph::GraphExecutor exec(g, options);
    REQUIRE(exec.kernels().size() == 2);
    CHECK(exec.kernels()[0].source == "log");
    CHECK(exec.kernels()[0].logged_ms == doctest::Approx(0.25));
    CHECK(exec.kernels()[1].source == "default");
    ansor_graph::TensorMap ref = ansor_graph::declared_values(g, 1);
    exec.bind(ref);
    exec.run();
    ansor_graph::run_reference(g, ref);
    CHECK(ansor_graph::check_tensor("z", exec.tensors().at("z"), ref.at("z")).ok(1e-5));
    std::remove(log_path.c_str());
}
