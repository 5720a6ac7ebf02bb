#pragma once
// Lowers a graph to Halide kernel calls: each node becomes one call (concat
// and split: one copy per part) of a registered generator with params, i.e.
// a task ansor_tune_tasks can tune, and the views of tensors it reads and
// writes. Reshape becomes an alias (no data moves).
//
//   conv2d      groups 1, square kernel/stride/padding, no dilation: conv2d_bias_act
//               (a fourth input, the residual, is its shortcut: residual=1)
//               depthwise (groups = CI = CO), same conditions:        depthwise_bias_act
//               any other:                                            graph_conv2d
//   conv2d_transpose  t2d
//   dense, matmul   dense_bias_act (leading dims flattened into rows)
//   batch_matmul    gmm
//   add, mul        graph_elementwise     relu, relu6, gelu, sigmoid   graph_activation
//   concat, split   graph_copy per part   transpose                    graph_transpose
//   max_pool2d, avg_pool2d  pool2d        batch_norm                   graph_batch_norm
//   softmax         softmax               layer_norm                   layer_norm (residual=0)
//   enlarge         graph_enlarge
// A node whose inputs are all weights (or results of such nodes) lowers to
// calls marked on_weights: weight preparation, done once, not per run.
#include "graph_ir.h"

#include "network/generator_pipeline.h"

#include <HalideRuntime.h>

namespace ansor_graph {

// A strided window of a tensor's storage, in Halide's order (innermost first).
struct View {
    std::string tensor;
    int64_t offset = 0;  // elements
    std::vector<halide_dimension_t> dims;
};
// The whole tensor seen with Halide extents `extents` (product = its size).
View dense_view(const std::string &tensor, const std::vector<int> &extents);

struct KernelCall {
    std::string node;  // the graph node this call implements
    std::string generator;
    ansor::GeneratorParamValues params;
    std::vector<std::pair<std::string, View>> inputs;  // generator input name -> view
    View output;
    // Reads weights only, directly or through other such calls (a
    // substitution's concatenated, summed or enlarged kernels): its result
    // is the same on every run, so the executor computes it once when it
    // binds the weights and the graph cost leaves it out.
    bool on_weights = false;
    std::string key() const;  // "generator N=1 H=..." : one compiled pipeline per key
};

struct LoweredGraph {
    std::vector<KernelCall> calls;                // in execution order
    std::map<std::string, std::string> aliases;   // reshape output -> the tensor it shares storage with
    std::map<std::string, Shape> zero_tensors;    // zero biases of conv2d / dense nodes without one
    // Parts of a last-axis concat or split kept inside the whole, with no
    // storage or copy of their own (window_copies.h): part -> its window.
    std::map<std::string, View> windows;
};

LoweredGraph lower_graph(const Graph &g);

}  // namespace ansor_graph
