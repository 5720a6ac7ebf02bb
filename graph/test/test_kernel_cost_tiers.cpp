// The kernel cost providers without timing anything: the measured tier's
// cache file (read, validated, used instead of measuring) and the log tier
// on a log without records.
#include "joint_test_support.h"
#include "kernel_cost_tiers.h"

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
