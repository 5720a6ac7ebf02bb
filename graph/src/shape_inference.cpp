#include "shape_inference.h"

#include "op_attrs.h"

namespace ansor_graph {

namespace {

// Checks and error messages for one node.
struct Checker {
    Graph &g;
    const Node &n;
    std::string where;

    [[noreturn]] void fail(const std::string &problem) const { throw GraphError(where + ": " + problem); }

    void counts(size_t min_in, size_t max_in, size_t outs) const {
        if (n.inputs.size() < min_in || n.inputs.size() > max_in) {
            std::string want = min_in == max_in ? std::to_string(min_in)
                                                : std::to_string(min_in) + " to " + std::to_string(max_in);
            if (max_in > 100) want = "at least " + std::to_string(min_in);
            fail("field 'inputs' has " + std::to_string(n.inputs.size()) + " tensors, " + n.op + " takes " + want);
        }
        if (n.outputs.size() != outs)
            fail("field 'outputs' has " + std::to_string(n.outputs.size()) + " tensors, " + n.op + " writes " +
                 std::to_string(outs));
    }
    const Shape &in(size_t i) const { return g.tensor(n.inputs[i]).shape; }
    Layout layout(size_t i) const { return g.tensor(n.inputs[i]).layout; }
    void rank(size_t i, size_t r) const {
        if (in(i).size() != r)
            fail("input " + std::to_string(i) + " '" + n.inputs[i] + "' must be " + std::to_string(r) + "-D, got " +
                 shape_string(in(i)));
    }
    void dim_is(size_t i, size_t d, int want, const std::string &what) const {
        if (in(i)[d] != want)
            fail("input " + std::to_string(i) + " '" + n.inputs[i] + "' " + shape_string(in(i)) + ": dim " +
                 std::to_string(d) + " is " + std::to_string(in(i)[d]) + ", expected " + std::to_string(want) + " (" +
                 what + ")");
    }
    void same_shape(size_t i, size_t j) const {
        if (in(i) != in(j))
            fail("inputs '" + n.inputs[i] + "' " + shape_string(in(i)) + " and '" + n.inputs[j] + "' " +
                 shape_string(in(j)) + " must have the same shape");
    }
    void out(size_t k, const Shape &s, Layout l) const {
        for (int d : s)
            if (d < 1) fail("output '" + n.outputs[k] + "' would have shape " + shape_string(s) + " (window too large?)");
        TensorInfo t;
        t.name = n.outputs[k];
        t.shape = s;
        t.layout = s.size() == 4 ? l : Layout::kPlain;
        g.tensors[t.name] = t;
    }
};

}  // namespace

Layout required_layout(const Node &n, int input_index, const std::string &where) {
    const std::string &op = n.op;
    if (op == "conv2d" && (input_index == 0 || input_index == 3))  // data; the residual, added to the result
        return conv_attrs(n, where).layout;
    if ((op == "conv2d_transpose" || op == "max_pool2d" || op == "avg_pool2d" || op == "batch_norm") && input_index == 0)
        return Layout::kNHWC;
    return Layout::kPlain;
}

void infer_node(Graph &g, const Node &n, const std::string &where) {
    Checker c{g, n, where};
    const std::string &op = n.op;
    if (op == "conv2d") {
        c.counts(2, 4, 1);
        ConvAttrs a = conv_attrs(n, where);
        c.rank(0, 4);
        c.rank(1, 4);
        const bool nchw = a.layout == Layout::kNCHW;
        const Shape &x = c.in(0), &w = c.in(1);
        if (nchw && !is_square_dense_conv(a, w[0], w[1]))
            c.fail("layout NCHW needs groups 1, a square kernel, equal strides and paddings and no dilation");
        if (c.layout(0) != a.layout && c.layout(0) != Layout::kPlain)
            c.fail("input '" + n.inputs[0] + "' is " + layout_name(c.layout(0)) + ", the convolution's layout is " +
                   layout_name(a.layout));
        const int N = x[0], H = nchw ? x[2] : x[1], W = nchw ? x[3] : x[2], ci = nchw ? x[1] : x[3], co = w[3];
        if (ci % a.groups) c.fail("input channels " + std::to_string(ci) + " are not divisible by groups " + std::to_string(a.groups));
        if (co % a.groups) c.fail("output channels " + std::to_string(co) + " are not divisible by groups " + std::to_string(a.groups));
        c.dim_is(1, 2, ci / a.groups, "input channels / groups; weights are [KH, KW, CI/groups, CO]");
        if (n.inputs.size() >= 3) {
            c.rank(2, 1);
            c.dim_is(2, 0, co, "bias has one value per output channel");
        }
        const int OH = window_out(H, w[0], a.sh, a.ph, a.dh), OW = window_out(W, w[1], a.sw, a.pw, a.dw);
        const Shape o = nchw ? Shape{N, co, OH, OW} : Shape{N, OH, OW, co};
        if (n.inputs.size() == 4) {
            // inputs [x, w, bias, residual]: act(conv + bias + residual)
            if (!is_square_dense_conv(a, w[0], w[1]))
                c.fail("a residual input (the fourth) needs groups 1, a square kernel, equal strides and paddings "
                       "and no dilation");
            c.rank(3, 4);
            if (c.in(3) != o)
                c.fail("residual '" + n.inputs[3] + "' " + shape_string(c.in(3)) + " must have the output's shape " +
                       shape_string(o));
            if (c.layout(3) != a.layout) c.fail("residual '" + n.inputs[3] + "' must be " + layout_name(a.layout));
        }
        c.out(0, o, a.layout);
    } else if (op == "conv2d_transpose") {
        c.counts(2, 2, 1);
        ConvTransposeAttrs a = conv_transpose_attrs(n, where);
        c.rank(0, 4);
        c.rank(1, 4);
        const Shape &x = c.in(0), &w = c.in(1);
        if (w[0] != w[1]) c.fail("weights " + shape_string(w) + " must have a square kernel [K, K, CI, CO]");
        c.dim_is(1, 2, x[3], "input channels; weights are [K, K, CI, CO]");
        c.out(0, {x[0], (x[1] - 1) * a.s - 2 * a.p + w[0], (x[2] - 1) * a.s - 2 * a.p + w[0], w[3]}, Layout::kNHWC);
    } else if (op == "dense" || op == "matmul") {
        c.counts(2, 3, 1);
        dense_attrs(n, where);
        c.rank(1, 2);
        const Shape &x = c.in(0);
        c.dim_is(0, x.size() - 1, c.in(1)[0], "the last dim of the input is the weight's first, weights are [K, M]");
        if (n.inputs.size() == 3) {
            c.rank(2, 1);
            c.dim_is(2, 0, c.in(1)[1], "bias has one value per output feature");
        }
        Shape o = x;
        o.back() = c.in(1)[1];
        c.out(0, o, Layout::kPlain);
    } else if (op == "batch_matmul") {
        c.counts(2, 2, 1);
        no_attrs(n, where);
        c.rank(0, 3);
        c.rank(1, 3);
        c.dim_is(1, 0, c.in(0)[0], "batch of [B, N, K] x [B, K, M]");
        c.dim_is(1, 1, c.in(0)[2], "K of [B, N, K] x [B, K, M]");
        c.out(0, {c.in(0)[0], c.in(0)[1], c.in(1)[2]}, Layout::kPlain);
    } else if (op == "add" || op == "mul") {
        c.counts(2, 2, 1);
        no_attrs(n, where);
        c.same_shape(0, 1);
        c.out(0, c.in(0), c.layout(0) == c.layout(1) ? c.layout(0) : Layout::kPlain);
    } else if (op == "relu" || op == "relu6" || op == "gelu" || op == "sigmoid") {
        c.counts(1, 1, 1);
        no_attrs(n, where);
        c.out(0, c.in(0), c.layout(0));
    } else if (op == "concat") {
        c.counts(1, 1000, 1);
        AxisAttrs a = axis_attrs(n, where, (int)c.in(0).size());
        Shape o = c.in(0);
        for (size_t i = 1; i < n.inputs.size(); i++) {
            c.rank(i, o.size());
            for (size_t d = 0; d < o.size(); d++)
                if ((int)d != a.axis) c.dim_is(i, d, o[d], "concat inputs agree off the axis");
            o[a.axis] += c.in(i)[a.axis];
        }
        bool same = true;
        for (size_t i = 1; i < n.inputs.size(); i++) same = same && c.layout(i) == c.layout(0);
        c.out(0, o, same ? c.layout(0) : Layout::kPlain);
    } else if (op == "split") {
        c.counts(1, 1, n.outputs.size());
        AxisAttrs a = axis_attrs(n, where, (int)c.in(0).size());
        if (a.sizes.size() != n.outputs.size())
            c.fail("attribute 'sizes' has " + std::to_string(a.sizes.size()) + " entries for " +
                   std::to_string(n.outputs.size()) + " outputs");
        int total = 0;
        for (int s : a.sizes) total += s;
        c.dim_is(0, a.axis, total, "the sum of attribute 'sizes'");
        for (size_t k = 0; k < a.sizes.size(); k++) {
            Shape o = c.in(0);
            o[a.axis] = a.sizes[k];
            c.out(k, o, c.layout(0));
        }
    } else if (op == "transpose") {
        c.counts(1, 1, 1);
        TransposeAttrs a = transpose_attrs(n, where);
        if (a.perm.size() != c.in(0).size())
            c.fail("attribute 'perm' has " + std::to_string(a.perm.size()) + " entries for a " +
                   std::to_string(c.in(0).size()) + "-D input " + shape_string(c.in(0)));
        Shape o;
        for (int p : a.perm) o.push_back(c.in(0)[p]);
        c.out(0, o, a.layout);
    } else if (op == "reshape") {
        c.counts(1, 1, 1);
        ReshapeAttrs a = reshape_attrs(n, where, c.in(0));
        c.out(0, a.shape, a.layout);
    } else if (op == "max_pool2d" || op == "avg_pool2d") {
        c.counts(1, 1, 1);
        PoolAttrs a = pool_attrs(n, where);
        c.rank(0, 4);
        const Shape &x = c.in(0);
        if (a.global) {
            if (x[1] != x[2]) c.fail("a global pool needs a square input, got " + shape_string(x));
            c.out(0, {x[0], 1, 1, x[3]}, Layout::kNHWC);
        } else {
            c.out(0, {x[0], window_out(x[1], a.k, a.s, a.p), window_out(x[2], a.k, a.s, a.p), x[3]}, Layout::kNHWC);
        }
    } else if (op == "batch_norm") {
        c.counts(5, 5, 1);
        norm_attrs(n, where);
        const int ch = c.in(0).back();
        for (size_t i = 1; i < 5; i++) {
            c.rank(i, 1);
            c.dim_is(i, 0, ch, "gamma, beta, mean and variance have one value per channel (the last dim)");
        }
        c.out(0, c.in(0), c.layout(0));
    } else if (op == "softmax") {
        c.counts(1, 1, 1);
        no_attrs(n, where);
        c.out(0, c.in(0), Layout::kPlain);
    } else if (op == "layer_norm") {
        c.counts(3, 3, 1);
        norm_attrs(n, where);
        for (size_t i = 1; i < 3; i++) {
            c.rank(i, 1);
            c.dim_is(i, 0, c.in(0).back(), "gamma and beta have one value per element of the last dim");
        }
        c.out(0, c.in(0), Layout::kPlain);
    } else if (op == "enlarge") {
        c.counts(1, 1, 1);
        EnlargeAttrs a = enlarge_attrs(n, where);
        c.rank(0, 4);
        const Shape &w = c.in(0);
        if (a.kh < w[0] || a.kw < w[1] || (a.kh - w[0]) % 2 || (a.kw - w[1]) % 2)
            c.fail("attribute 'kernel' [" + std::to_string(a.kh) + ", " + std::to_string(a.kw) +
                   "] must be at least the kernel's [" + std::to_string(w[0]) + ", " + std::to_string(w[1]) +
                   "] and differ from it by an even amount (the kernel is centred)");
        c.out(0, {a.kh, a.kw, w[2], w[3]}, Layout::kPlain);
    } else {
        c.fail("unknown operator '" + op + "'");
    }
}

}  // namespace ansor_graph
