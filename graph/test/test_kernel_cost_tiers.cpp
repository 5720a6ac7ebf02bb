// The kernel cost providers without timing anything: the measured tier's
// cache file (read, validated, used instead of measuring) and the log tier
// on a log without records, and a layer priced by its logged sibling.
#include "joint_test_support.h"
#include "kernel_cost_tiers.h"

#include "dag/pipeline_dag.h"
#include "network/generator_pipeline.h"
#include "records/pipeline_key.h"
#include "records/tuning_log.h"

#include <cstdio>
#include <fstream>

using namespace joint_test;
using namespace ansor_graph;

namespace {

std::string write_temp(const std::string &name, const std::string &text) {
    const std::string path = "/tmp/ansor_graph_joint_test_" + name;
    std::ofstream(path) << text;
    return path;
}

}  // namespace

TEST_CASE("measured tier: a cache file prices its kernels without measuring") {
    Graph g = graph_of(kTwoDense);
    KernelCostOptions options;
    json costs = json::object();
    double ms = 1;
    for (const KernelCall &c : lower_graph(g).calls) costs[c.key()] = ms++;
    // The matmul and the dense node are one kernel (the same key, priced 2); relu 3.
    REQUIRE(costs.size() == 2);
    json cache = {{"format", "ansor-kernel-costs"}, {"target", options.target}, {"threads", options.threads},
                  {"schedule", MeasuredKernelCosts::kScheduleName}, {"costs", costs}};
    const std::string path = write_temp("costs.json", cache.dump());
    MeasuredKernelCosts measured(path, options);
    GraphCost c = graph_cost(g, measured);
    CHECK(c.ms == doctest::Approx(2 + 2 + 3));
    CHECK(c.calls_by_source["measured"] == 3);
    CHECK(measured.measured() == 0);
    std::remove(path.c_str());
}

TEST_CASE("measured tier: a malformed cache file is an error naming it") {
    KernelCostOptions options;
    const std::string not_json = write_temp("bad1.json", "{");
    const std::string wrong = write_temp("bad2.json", R"({"format": "something else", "costs": {}})");
    const std::string bad_cost = write_temp(
        "bad3.json", json({{"format", "ansor-kernel-costs"}, {"target", options.target}, {"threads", options.threads},
                           {"schedule", MeasuredKernelCosts::kScheduleName}, {"costs", {{"k", "fast"}}}})
                         .dump());
    for (const auto &p : {not_json, wrong, bad_cost}) {
        try {
            MeasuredKernelCosts m(p, options);
            FAIL("accepted " << p);
        } catch (const GraphError &e) {
            CHECK(std::string(e.what()).find(p) != std::string::npos);
        }
        std::remove(p.c_str());
    }
}

TEST_CASE("log tier: a kernel without a record is left to the next provider") {
    Graph g = graph_of(kTwoDense);
    LogKernelCosts logged("/tmp/ansor_graph_joint_test_no_such_log.jsonl", KernelCostOptions{});
    FakeCosts fake({});
    CostChain chain;
    chain.add(&logged);
    chain.add(&fake);
    GraphCost c = graph_cost(g, chain);
    CHECK(c.calls_by_source["fake"] == 3);
    CHECK(c.calls_by_source.count("log") == 0);
}

namespace {

// A record of `call`'s kernel at `ms` (the empty program, as tuning logs it).
void log_kernel(const std::string &log_path, const KernelCall &call, double ms) {
    KernelCostOptions options;
    const Halide::Target target(options.target);
    ansor::GeneratorPipeline p = ansor::build_generator_pipeline(call.generator, call.params, target);
    ansor::PipelineDAG dag(p.outputs(), options.threads);
    ansor::MeasureResult result;
    result.ok = true;
    result.min_ms = result.median_ms = ms;
    result.runs = 1;
    ansor::TuningLog(log_path).append(ansor::make_pipeline_key(dag), target, ansor::State(dag), result);
}

const char *kLayerWithRelu = R"({"name": "layer",
  "inputs": [{"name": "x", "shape": [1, 6, 5, 4]}],
  "weights": [{"name": "w", "shape": [1, 1, 4, 4]}, {"name": "b", "shape": [4]}],
  "nodes": [{"name": "c", "op": "conv2d", "inputs": ["x", "w", "b"], "outputs": ["c"], "attrs": {"activation": "relu"}}],
  "outputs": ["c"]})";

}  // namespace

TEST_CASE("sibling tier: a layer without a record costs its logged sibling's time") {
    const std::string log_path = "/tmp/ansor_graph_joint_test_sibling_log.jsonl";
    std::remove(log_path.c_str());
    Graph with_relu = graph_of(kLayerWithRelu);
    KernelCall relu_call = lower_graph(with_relu).calls.at(0);
    REQUIRE(relu_call.params.at("act") == "1");
    KernelCall plain_call = relu_call;  // the same layer, no activation
    plain_call.params["act"] = "0";
    log_kernel(log_path, plain_call, 0.75);

    LogKernelCosts logged(log_path, KernelCostOptions{});
    EpilogueSiblingCosts siblings(logged);
    CHECK(!logged.cost(relu_call));
    std::optional<KernelCost> c = siblings.cost(relu_call);
    REQUIRE(c);
    CHECK(c->ms == doctest::Approx(0.75));
    CHECK(c->source == "log sibling");
    // A layer of another shape has no sibling; other kernels are not layers.
    KernelCall wider = relu_call;
    wider.params["CO"] = "8";
    CHECK(!siblings.cost(wider));
    KernelCall relu_kernel;
    relu_kernel.generator = "graph_activation";
    CHECK(!siblings.cost(relu_kernel));
    std::remove(log_path.c_str());
}
