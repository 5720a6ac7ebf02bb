#pragma once
// Data layout as a dimension of the graph search (TASO's joint search over
// substitutions and layouts; docs/taso.md, "Layouts"). A layout move flips
// the data layout (NHWC <-> NCHW) of a set of nodes that can run in either:
//
//   conv2d   the convolutions conv2d_bias_act computes (groups 1, square
//            kernel, equal strides and paddings, no dilation); in NCHW they
//            run as graph_conv2d_nchw; data input and residual flip
//   add, mul, relu, relu6, gelu, sigmoid   on 4-D NHWC or NCHW tensors
//
// Flipping inserts layout conversions (transpose nodes) where a flipped
// node meets one that was not: each of its data inputs is converted to the
// new layout, unless it is itself a conversion from that layout (then the
// source is read directly), and each output is written in the new layout
// and converted back under its old name, so readers and graph outputs are
// unchanged. Conversions nobody reads any more are dropped. So two
// neighbouring nodes flipped one after the other end with no conversion
// between them, and a graph input given in NCHW is read directly by a
// first convolution flipped to NCHW.
//
// Moves offered on a graph: each flippable convolution alone, and each
// region (flippable nodes of one layout joined by the tensors they pass
// each other) that holds a convolution and more than one node, as a whole,
// so that a chain can change layout in one step rather than through
// intermediate graphs that pay a conversion at every boundary.
#include "graph_ir.h"

namespace ansor_graph {

struct LayoutMove {
    std::vector<int> nodes;  // indices into the graph's nodes, all in layout `from`
    Layout from = Layout::kNHWC, to = Layout::kNCHW;
    std::string describe(const Graph &g) const;  // "layout NHWC -> NCHW: conv2d 'c1'" or "...: 12 nodes (8 conv2d) from 'c1'"
};

// The data layout node `n` runs in, or kPlain when it cannot change layout.
Layout flippable_layout(const Graph &g, const Node &n);

std::vector<LayoutMove> layout_moves(const Graph &g);

// `g` with the move's nodes in layout `to` and the conversions it needs;
// computes the same outputs.
Graph apply_layout_move(const Graph &g, const LayoutMove &m);

}  // namespace ansor_graph
