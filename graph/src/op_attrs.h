#pragma once
// Typed attributes of each operator, parsed from a node's "attrs" object.
// Shape inference, the reference and the Halide lowering all read these, so
// an attribute means the same thing everywhere. Unknown attributes and
// wrong types are GraphErrors naming the node and the field.
#include "graph_ir.h"

namespace ansor_graph {

// Activation codes shared with the generators' `act` GeneratorParam
// (generators/layers/layer_common.h); sigmoid only in graph_ops generators.
enum class Act { kNone = 0, kRelu = 1, kGelu = 2, kSigmoid = 3, kRelu6 = 6 };
Act parse_act(const std::string &s, const std::string &where);
std::string act_name(Act a);

struct ConvAttrs {
    int sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1, groups = 1;
    Act act = Act::kNone;
    // The data layout of the input, residual and output: NHWC, or NCHW for
    // a convolution conv2d_bias_act would compute (graph_conv2d_nchw).
    Layout layout = Layout::kNHWC;
};
struct ConvTransposeAttrs {  // square kernel; no bias or activation (the suite's t2d)
    int s = 1, p = 0;
};
struct DenseAttrs {
    Act act = Act::kNone;
};
struct PoolAttrs {
    bool is_max = true;  // op max_pool2d / avg_pool2d
    bool global = false;
    int k = 1, s = 1, p = 0;
};
struct AxisAttrs {  // concat, split
    int axis = 0;   // normalised to [0, rank)
    std::vector<int> sizes;  // split only
};
struct TransposeAttrs {
    std::vector<int> perm;
    Layout layout = Layout::kPlain;  // tag of the output
};
struct ReshapeAttrs {
    Shape shape;  // -1 resolved
    Layout layout = Layout::kPlain;
};
struct NormAttrs {
    float eps = 1e-5f;
};
struct EnlargeAttrs {
    int kh = 0, kw = 0;
};

// Reads one node's attrs; `where` prefixes every error ("file: node 'x' (op)").
class AttrReader {
public:
    AttrReader(const Node &n, std::string where);
    int get_int(const std::string &key, int fallback);
    float get_float(const std::string &key, float fallback);
    bool get_bool(const std::string &key, bool fallback);
    std::string get_string(const std::string &key, const std::string &fallback);
    // An int, or a list of two ints: (h, w).
    std::pair<int, int> get_pair(const std::string &key, std::pair<int, int> fallback);
    std::vector<int> get_ints(const std::string &key, bool required);
    // Throws for any attribute not read.
    void finish();
    [[noreturn]] void fail(const std::string &key, const std::string &problem) const;

private:
    const nlohmann::json *find(const std::string &key);
    const Node &node_;
    std::string where_;
    std::vector<std::string> used_;
};

ConvAttrs conv_attrs(const Node &n, const std::string &where);
// A convolution the conv2d_bias_act kernel computes (groups 1, a square
// kernel, equal strides and paddings, no dilation). Only such a conv2d node
// takes a residual (its fourth input).
bool is_square_dense_conv(const ConvAttrs &a, int kh, int kw);
ConvTransposeAttrs conv_transpose_attrs(const Node &n, const std::string &where);
DenseAttrs dense_attrs(const Node &n, const std::string &where);
PoolAttrs pool_attrs(const Node &n, const std::string &where);
AxisAttrs axis_attrs(const Node &n, const std::string &where, int rank);
TransposeAttrs transpose_attrs(const Node &n, const std::string &where);
// `in` is the input's shape, so that -1 can be resolved.
ReshapeAttrs reshape_attrs(const Node &n, const std::string &where, const Shape &in);
NormAttrs norm_attrs(const Node &n, const std::string &where);
EnlargeAttrs enlarge_attrs(const Node &n, const std::string &where);
// For ops without attributes: throws if there are any.
void no_attrs(const Node &n, const std::string &where);

// The sliding-window output extent (as generators/ops/common.h's window_out).
int window_out(int in, int k, int s, int p, int d = 1);

}  // namespace ansor_graph
