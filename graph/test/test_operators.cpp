// Each operator's Halide implementation (through the executor, default
// schedules) against the plain-loop reference on small shapes.
#include "graph_test_support.h"

using namespace graph_test;

namespace {

constexpr double kTol = 1e-4;

double error_of(const json &j) { return worst_error(ansor_graph::parse_graph(j, "test")); }

}  // namespace

TEST_CASE("conv2d: plain, strided, without bias (conv2d_bias_act)") {
    CHECK(error_of(one_node_graph("conv2d", {{"x", {1, 9, 7, 5}}}, {{"w", {3, 3, 5, 6}}, {"b", {6}}},
                                  {{"stride", 2}, {"padding", 1}, {"activation", "relu"}})) < kTol);
    CHECK(error_of(one_node_graph("conv2d", {{"x", {2, 5, 5, 3}}}, {{"w", {1, 1, 3, 4}}}, {{"activation", "gelu"}})) < kTol);
}

TEST_CASE("conv2d in NCHW, with and without a residual (graph_conv2d_nchw)") {
    CHECK(error_of(one_node_graph("conv2d", {{"x", {1, 5, 9, 7}}}, {{"w", {3, 3, 5, 6}}, {"b", {6}}},
                                  {{"stride", 2}, {"padding", 1}, {"activation", "relu"}, {"layout", "NCHW"}})) < kTol);
    json j = one_node_graph("conv2d", {{"x", {2, 3, 6, 5}}}, {{"w", {1, 1, 3, 4}}, {"b", {4}}},
                            {{"activation", "relu6"}, {"layout", "NCHW"}});
    j["inputs"].push_back({{"name", "r"}, {"shape", {2, 4, 6, 5}}, {"layout", "NCHW"}});
    j["nodes"][0]["inputs"].push_back("r");
    CHECK(error_of(j) < kTol);
    // NCHW is only for the convolutions conv2d_bias_act computes.
    CHECK_THROWS_WITH_AS(error_of(one_node_graph("conv2d", {{"x", {1, 4, 6, 6}}}, {{"w", {3, 3, 2, 4}}},
                                                 {{"groups", 2}, {"layout", "NCHW"}})),
                         doctest::Contains("layout NCHW needs groups 1"), ansor_graph::GraphError);
}

TEST_CASE("conv2d: depthwise (depthwise_bias_act)") {
    CHECK(error_of(one_node_graph("conv2d", {{"x", {1, 8, 8, 6}}}, {{"w", {3, 3, 1, 6}}, {"b", {6}}},
                                  {{"padding", 1}, {"groups", 6}, {"activation", "relu6"}})) < kTol);
}

TEST_CASE("conv2d: grouped, dilated, rectangular, asymmetric stride (graph_conv2d)") {
    CHECK(error_of(one_node_graph("conv2d", {{"x", {1, 9, 10, 8}}}, {{"w", {3, 3, 2, 12}}, {"b", {12}}},
                                  {{"padding", 2}, {"dilation", 2}, {"groups", 4}})) < kTol);
    CHECK(error_of(one_node_graph("conv2d", {{"x", {1, 7, 9, 4}}}, {{"w", {1, 5, 4, 3}}},
                                  {{"padding", json::array({0, 2})}, {"stride", json::array({1, 2})}})) < kTol);
}

TEST_CASE("conv2d_transpose (t2d)") {
    CHECK(error_of(one_node_graph("conv2d_transpose", {{"x", {1, 4, 5, 6}}}, {{"w", {4, 4, 6, 3}}},
                                  {{"stride", 2}, {"padding", 1}})) < kTol);
}

TEST_CASE("dense, matmul (dense_bias_act), batch_matmul (gmm)") {
    CHECK(error_of(one_node_graph("dense", {{"x", {2, 3, 10}}}, {{"w", {10, 7}}, {"b", {7}}}, {{"activation", "gelu"}})) < kTol);
    CHECK(error_of(one_node_graph("matmul", {{"x", {5, 9}}}, {{"w", {9, 4}}})) < kTol);
    CHECK(error_of(one_node_graph("batch_matmul", {{"a", {3, 5, 6}}, {"b", {3, 6, 4}}}, {})) < kTol);
}

TEST_CASE("elementwise and activations (graph_elementwise, graph_activation)") {
    for (const char *op : {"add", "mul"}) {
        INFO(op);
        CHECK(error_of(one_node_graph(op, {{"a", {2, 3, 5}}, {"b", {2, 3, 5}}}, {})) < kTol);
    }
    for (const char *op : {"relu", "relu6", "gelu", "sigmoid"}) {
        INFO(op);
        CHECK(error_of(one_node_graph(op, {{"x", {4, 33}}}, {})) < kTol);
    }
}

TEST_CASE("concat and split along inner, middle and outer axes (graph_copy)") {
    for (int axis : {0, 1, -1}) {
        INFO("axis " << axis);
        Shape a = {2, 3, 4}, b = {2, 3, 4};
        b[axis < 0 ? 2 : axis] = 5;
        CHECK(error_of(one_node_graph("concat", {{"a", a}, {"b", b}, {"c", a}}, {}, {{"axis", axis}})) < kTol);
        CHECK(error_of(one_node_graph("split", {{"x", {4, 6, 5}}}, {},
                                      {{"axis", axis},
                                       {"sizes", axis == 1 ? json::array({1, 2, 3}) : axis == 0 ? json::array({1, 3}) : json::array({2, 3})}},
                                      axis == 1 ? 3 : 2)) < kTol);
    }
}

TEST_CASE("transpose (graph_transpose) and reshape") {
    CHECK(error_of(one_node_graph("transpose", {{"x", {2, 3, 4, 5}}}, {}, {{"perm", {0, 3, 1, 2}}})) < kTol);
    CHECK(error_of(one_node_graph("transpose", {{"x", {3, 4, 5}}}, {}, {{"perm", {2, 0, 1}}})) < kTol);
    CHECK(error_of(one_node_graph("transpose", {{"x", {6, 7}}}, {}, {{"perm", {1, 0}}})) < kTol);
    // A reshape aliases its input: run one through a consumer.
    json j = one_node_graph("reshape", {{"x", {2, 3, 4}}}, {}, {{"shape", {6, -1}}});
    j["nodes"].push_back({{"name", "r"}, {"op", "relu"}, {"inputs", {"y"}}, {"outputs", {"z"}}});
    j["outputs"] = {"z"};
    CHECK(error_of(j) < kTol);
}

TEST_CASE("pooling (pool2d): max with padding, average, global") {
    json x = one_node_graph("max_pool2d", {{"x", {1, 9, 9, 3}}}, {}, {{"kernel", 3}, {"stride", 2}, {"padding", 1}});
    x["inputs"][0]["layout"] = "NHWC";
    CHECK(error_of(x) < kTol);
    x["nodes"][0]["op"] = "avg_pool2d";
    CHECK(error_of(x) < kTol);
    x["nodes"][0]["attrs"] = {{"global", true}};
    CHECK(error_of(x) < kTol);
}

TEST_CASE("batch_norm (graph_batch_norm), softmax, layer_norm") {
    json bn = one_node_graph("batch_norm", {{"x", {1, 4, 4, 5}}}, {{"g", {5}}, {"b", {5}}, {"m", {5}}, {"v", {5}}},
                             {{"epsilon", 1e-3}});
    bn["weights"][3]["init"] = "uniform";  // a variance must be positive
    bn["weights"][3]["range"] = {0.5, 1.5};
    CHECK(error_of(bn) < kTol);
    CHECK(error_of(one_node_graph("softmax", {{"x", {3, 4, 9}}}, {})) < kTol);
    CHECK(error_of(one_node_graph("layer_norm", {{"x", {5, 12}}}, {{"g", {12}}, {"b", {12}}})) < kTol);
}

TEST_CASE("enlarge (graph_enlarge)") {
    CHECK(error_of(one_node_graph("enlarge", {{"w", {1, 3, 2, 4}}}, {}, {{"kernel", json::array({5, 5})}})) < kTol);
}

TEST_CASE("an NCHW input gets a layout conversion before a convolution") {
    json j = one_node_graph("conv2d", {{"x", {1, 3, 6, 5}}}, {{"w", {3, 3, 3, 4}}}, {{"padding", 1}});
    j["inputs"][0]["layout"] = "NCHW";
    Graph g = ansor_graph::parse_graph(j, "test");
    REQUIRE(g.nodes.size() == 2);
    CHECK(g.nodes[0].op == "transpose");
    CHECK(g.nodes[1].inputs[0] == "x@nhwc");
    CHECK(g.tensor("y").shape == Shape{1, 6, 5, 4});
    CHECK(worst_error(g) < kTol);
}

TEST_CASE("an add of an NCHW and an NHWC tensor converts the NCHW one") {
    json j = one_node_graph("add", {{"a", {1, 3, 4, 5}}, {"b", {1, 4, 5, 3}}}, {});
    j["inputs"][0]["layout"] = "NCHW";
    j["inputs"][1]["layout"] = "NHWC";
    Graph g = ansor_graph::parse_graph(j, "test");
    REQUIRE(g.nodes.size() == 2);
    CHECK(g.nodes[1].inputs[0] == "a@nhwc");
    CHECK(g.tensor("y").layout == ansor_graph::Layout::kNHWC);
    CHECK(worst_error(g) < kTol);
}

TEST_CASE("the check catches a wrong value") {
    ansor_graph::Tensor want = ansor_graph::make_tensor({4}, 1.f), got = ansor_graph::make_tensor({4}, 1.f);
    CHECK(ansor_graph::check_tensor("t", got, want).ok());
    got[2] = 1.01f;
    CHECK_FALSE(ansor_graph::check_tensor("t", got, want).ok());
    got[2] = NAN;
    CHECK_FALSE(ansor_graph::check_tensor("t", got, want).ok());
    CHECK_FALSE(ansor_graph::check_tensor("t", ansor_graph::make_tensor({2, 2}, 1.f), want).ok());
}
