#include "op_lowering.h"

#include "op_attrs.h"
#include "window_copies.h"

#include <algorithm>
#include <cstdio>
#include <set>

namespace ansor_graph {

View dense_view(const std::string &tensor, const std::vector<int> &extents) {
    View v;
    v.tensor = tensor;
    int32_t stride = 1;
    for (int e : extents) {
        v.dims.push_back(halide_dimension_t(0, e, stride));
        stride *= e;
    }
    return v;
}

std::string KernelCall::key() const { return generator + " " + ansor::generator_param_args(params); }

namespace {

std::vector<int> reversed(const Shape &s) { return std::vector<int>(s.rbegin(), s.rend()); }

std::string str(int x) { return std::to_string(x); }

struct Lowerer {
    const Graph &g;
    LoweredGraph out;

    const Shape &shape(const std::string &t) const { return g.tensor(t).shape; }

    KernelCall &call(const Node &n, const std::string &generator, ansor::GeneratorParamValues params) {
        KernelCall c;
        c.node = n.name;
        c.generator = generator;
        c.params = std::move(params);
        out.calls.push_back(c);
        return out.calls.back();
    }

    // The bias of a conv2d / dense node, or a zero tensor of `n` values.
    std::string bias_of(const Node &n, int count) {
        if (n.inputs.size() >= 3) return n.inputs[2];
        const std::string name = n.name + "@zero_bias";
        out.zero_tensors[name] = {count};
        return name;
    }

    void conv2d(const Node &n, const std::string &where) {
        const ConvAttrs a = conv_attrs(n, where);
        const Shape &x = shape(n.inputs[0]), &w = shape(n.inputs[1]), &o = shape(n.outputs[0]);
        if (a.layout == Layout::kNCHW) return conv2d_nchw(n, a);
        const int N = x[0], H = x[1], W = x[2], CI = x[3], KH = w[0], KW = w[1], CO = w[3];
        const std::string bias = bias_of(n, CO);
        const bool regular = a.dh == 1 && a.dw == 1 && KH == KW && a.sh == a.sw && a.ph == a.pw;
        const std::string act = str((int)a.act);
        if (is_square_dense_conv(a, KH, KW)) {
            const bool residual = n.inputs.size() == 4;
            KernelCall &c = call(n, "conv2d_bias_act",
                                 {{"N", str(N)}, {"H", str(H)}, {"W", str(W)}, {"CI", str(CI)}, {"CO", str(CO)},
                                  {"k", str(KH)}, {"s", str(a.sh)}, {"p", str(a.ph)}, {"act", act},
                                  {"residual", residual ? "1" : "0"}});
            c.inputs = {{"input", dense_view(n.inputs[0], reversed(x))},
                        {"weight", dense_view(n.inputs[1], reversed(w))},
                        {"bias", dense_view(bias, {CO})}};
            if (residual) c.inputs.push_back({"shortcut", dense_view(n.inputs[3], reversed(o))});
            c.output = dense_view(n.outputs[0], reversed(o));
        } else if (regular && a.groups == CI && CI == CO) {
            KernelCall &c = call(n, "depthwise_bias_act",
                                 {{"N", str(N)}, {"H", str(H)}, {"W", str(W)}, {"C", str(CI)}, {"k", str(KH)},
                                  {"s", str(a.sh)}, {"p", str(a.ph)}, {"act", act}});
            c.inputs = {{"input", dense_view(n.inputs[0], reversed(x))},
                        {"weight", dense_view(n.inputs[1], {CO, KW, KH})},  // [KH, KW, 1, C] is [KH, KW, C]
                        {"bias", dense_view(bias, {CO})}};
            c.output = dense_view(n.outputs[0], reversed(o));
        } else {
            KernelCall &c = call(n, "graph_conv2d",
                                 {{"N", str(N)}, {"H", str(H)}, {"W", str(W)}, {"CI", str(CI)}, {"CO", str(CO)},
                                  {"KH", str(KH)}, {"KW", str(KW)}, {"SH", str(a.sh)}, {"SW", str(a.sw)},
                                  {"PH", str(a.ph)}, {"PW", str(a.pw)}, {"DH", str(a.dh)}, {"DW", str(a.dw)},
                                  {"G", str(a.groups)}, {"act", act}});
            c.inputs = {{"input", dense_view(n.inputs[0], reversed(x))},
                        {"weight", dense_view(n.inputs[1], reversed(w))},
                        {"bias", dense_view(bias, {CO})}};
            c.output = dense_view(n.outputs[0], reversed(o));
        }
    }

    // Shape inference admits NCHW for the convolutions conv2d_bias_act computes only.
    void conv2d_nchw(const Node &n, const ConvAttrs &a) {
        const Shape &x = shape(n.inputs[0]), &w = shape(n.inputs[1]), &o = shape(n.outputs[0]);
        const int N = x[0], CI = x[1], H = x[2], W = x[3], K = w[0], CO = w[3];
        const bool residual = n.inputs.size() == 4;
        KernelCall &c = call(n, "graph_conv2d_nchw",
                             {{"N", str(N)}, {"H", str(H)}, {"W", str(W)}, {"CI", str(CI)}, {"CO", str(CO)},
                              {"k", str(K)}, {"s", str(a.sh)}, {"p", str(a.ph)}, {"act", str((int)a.act)},
                              {"residual", residual ? "1" : "0"}});
        c.inputs = {{"input", dense_view(n.inputs[0], reversed(x))},
                    {"weight", dense_view(n.inputs[1], reversed(w))},
                    {"bias", dense_view(bias_of(n, CO), {CO})}};
        if (residual) c.inputs.push_back({"shortcut", dense_view(n.inputs[3], reversed(o))});
        c.output = dense_view(n.outputs[0], reversed(o));
    }

    void dense(const Node &n, const std::string &where) {
        const DenseAttrs a = dense_attrs(n, where);
        const Shape &w = shape(n.inputs[1]);
        const int K = w[0], M = w[1], rows = (int)(element_count(shape(n.inputs[0])) / K);
        KernelCall &c = call(n, "dense_bias_act",
                             {{"N", str(rows)}, {"K", str(K)}, {"M", str(M)}, {"act", str((int)a.act)}});
        c.inputs = {{"input", dense_view(n.inputs[0], {K, rows})},
                    {"weight", dense_view(n.inputs[1], {M, K})},
                    {"bias", dense_view(bias_of(n, M), {M})}};
        c.output = dense_view(n.outputs[0], {M, rows});
    }

    // One graph_copy per part: the part is dense, the whole is seen through a strided window.
    void copies(const Node &n, const std::string &whole, const std::vector<std::string> &parts, int axis, bool into_whole) {
        const Shape &s = shape(whole);
        int64_t outer = 1, inner = 1;
        for (int d = 0; d < axis; d++) outer *= s[d];
        for (size_t d = axis + 1; d < s.size(); d++) inner *= s[d];
        int offset = 0;
        for (const std::string &part : parts) {
            const int len = shape(part)[axis];
            KernelCall &c = call(n, "graph_copy", {{"O", str((int)outer)}, {"A", str(len)}, {"I", str((int)inner)}});
            View part_view = dense_view(part, {(int)inner, len, (int)outer});
            View window;
            window.tensor = whole;
            window.offset = (int64_t)offset * inner;
            window.dims = {halide_dimension_t(0, (int32_t)inner, 1), halide_dimension_t(0, len, (int32_t)inner),
                           halide_dimension_t(0, (int32_t)outer, (int32_t)(inner * s[axis]))};
            c.inputs = {{"input", into_whole ? part_view : window}};
            c.output = into_whole ? window : part_view;
            offset += len;
        }
    }

    void transpose(const Node &n, const std::string &where) {
        const TransposeAttrs a = transpose_attrs(n, where);
        const Shape &x = shape(n.inputs[0]);
        const int pad = 4 - (int)x.size();
        Shape s4(pad, 1);
        s4.insert(s4.end(), x.begin(), x.end());
        std::vector<int> p4;
        for (int d = 0; d < pad; d++) p4.push_back(d);
        for (int p : a.perm) p4.push_back(p + pad);
        Shape o4;
        for (int p : p4) o4.push_back(s4[p]);
        ansor::GeneratorParamValues params;
        for (int d = 0; d < 4; d++) {
            params["S" + str(d)] = str(s4[d]);
            params["P" + str(d)] = str(p4[d]);
        }
        KernelCall &c = call(n, "graph_transpose", params);
        c.inputs = {{"input", dense_view(n.inputs[0], reversed(s4))}};
        c.output = dense_view(n.outputs[0], reversed(o4));
    }

    void lower(const Node &n) {
        const std::string where = "node '" + n.name + "' (" + n.op + ")";
        const std::string &op = n.op;
        const std::string &in0 = n.inputs[0], &out0 = n.outputs[0];
        const int64_t size = element_count(shape(in0));
        if (op == "conv2d") {
            conv2d(n, where);
        } else if (op == "conv2d_transpose") {
            const ConvTransposeAttrs a = conv_transpose_attrs(n, where);
            const Shape &x = shape(in0), &w = shape(n.inputs[1]);
            KernelCall &c = call(n, "t2d",
                                 {{"N", str(x[0])}, {"H", str(x[1])}, {"W", str(x[2])}, {"CI", str(x[3])},
                                  {"CO", str(w[3])}, {"k", str(w[0])}, {"s", str(a.s)}, {"p", str(a.p)}});
            c.inputs = {{"input", dense_view(in0, reversed(x))}, {"weight", dense_view(n.inputs[1], reversed(w))}};
            c.output = dense_view(out0, reversed(shape(out0)));
        } else if (op == "dense" || op == "matmul") {
            dense(n, where);
        } else if (op == "batch_matmul") {
            const Shape &a = shape(in0), &b = shape(n.inputs[1]);
            KernelCall &c = call(n, "gmm", {{"B", str(a[0])}, {"N", str(a[1])}, {"M", str(b[2])}, {"K", str(a[2])}});
            c.inputs = {{"lhs", dense_view(in0, reversed(a))}, {"rhs", dense_view(n.inputs[1], reversed(b))}};
            c.output = dense_view(out0, reversed(shape(out0)));
        } else if (op == "add" || op == "mul") {
            KernelCall &c = call(n, "graph_elementwise", {{"E", str((int)size)}, {"op", op == "add" ? "0" : "1"}});
            c.inputs = {{"a", dense_view(in0, {(int)size})}, {"b", dense_view(n.inputs[1], {(int)size})}};
            c.output = dense_view(out0, {(int)size});
        } else if (op == "relu" || op == "relu6" || op == "gelu" || op == "sigmoid") {
            KernelCall &c = call(n, "graph_activation", {{"E", str((int)size)}, {"act", str((int)parse_act(op, where))}});
            c.inputs = {{"input", dense_view(in0, {(int)size})}};
            c.output = dense_view(out0, {(int)size});
        } else if (op == "concat") {
            copies(n, out0, n.inputs, axis_attrs(n, where, (int)shape(in0).size()).axis, true);
        } else if (op == "split") {
            copies(n, in0, n.outputs, axis_attrs(n, where, (int)shape(in0).size()).axis, false);
        } else if (op == "transpose") {
            transpose(n, where);
        } else if (op == "reshape") {
            auto it = out.aliases.find(in0);
            out.aliases[out0] = it == out.aliases.end() ? in0 : it->second;
        } else if (op == "max_pool2d" || op == "avg_pool2d") {
            const PoolAttrs a = pool_attrs(n, where);
            const Shape &x = shape(in0);
            KernelCall &c = call(n, "pool2d",
                                 {{"N", str(x[0])}, {"H", str(x[1])}, {"W", str(x[2])}, {"C", str(x[3])},
                                  {"k", str(a.global ? x[1] : a.k)}, {"s", str(a.global ? 1 : a.s)},
                                  {"p", str(a.global ? 0 : a.p)}, {"mode", a.is_max ? "0" : "1"}});
            c.inputs = {{"input", dense_view(in0, reversed(x))}};
            c.output = dense_view(out0, reversed(shape(out0)));
        } else if (op == "batch_norm") {
            const int C = shape(in0).back(), R = (int)(size / C);
            char eps[32];
            std::snprintf(eps, sizeof eps, "%g", norm_attrs(n, where).eps);
            KernelCall &c = call(n, "graph_batch_norm", {{"R", str(R)}, {"C", str(C)}, {"eps", eps}});
            c.inputs = {{"input", dense_view(in0, {C, R})}};
            const char *names[] = {"gamma", "beta", "mean", "var"};
            for (int i = 0; i < 4; i++) c.inputs.push_back({names[i], dense_view(n.inputs[i + 1], {C})});
            c.output = dense_view(out0, {C, R});
        } else if (op == "softmax" || op == "layer_norm") {
            const int D = shape(in0).back(), rows = (int)(size / D);
            ansor::GeneratorParamValues p = {{"N", str(rows)}, {"D", str(D)}};
            if (op == "layer_norm") p["residual"] = "0";
            KernelCall &c = call(n, op, p);
            c.inputs = {{"input", dense_view(in0, {D, rows})}};
            if (op == "layer_norm")
                c.inputs.insert(c.inputs.end(), {{"gamma", dense_view(n.inputs[1], {D})}, {"beta", dense_view(n.inputs[2], {D})}});
            c.output = dense_view(out0, {D, rows});
        } else if (op == "enlarge") {
            const EnlargeAttrs a = enlarge_attrs(n, where);
            const Shape &w = shape(in0);
            KernelCall &c = call(n, "graph_enlarge",
                                 {{"KH", str(w[0])}, {"KW", str(w[1])}, {"CI", str(w[2])}, {"CO", str(w[3])},
                                  {"NKH", str(a.kh)}, {"NKW", str(a.kw)}});
            c.inputs = {{"weight", dense_view(in0, reversed(w))}};
            c.output = dense_view(out0, reversed(shape(out0)));
        } else {
            throw GraphError(where + ": no Halide lowering for this operator");
        }
    }
};

}  // namespace

LoweredGraph lower_graph(const Graph &g) {
    Lowerer l{g, {}};
    // Tensors whose values follow from the weights alone.
    std::set<std::string> from_weights(g.weights.begin(), g.weights.end());
    for (const Node &n : g.nodes) {
        const size_t first = l.out.calls.size();
        l.lower(n);
        const bool on_weights = !n.inputs.empty() && std::all_of(n.inputs.begin(), n.inputs.end(), [&](const std::string &t) {
            return from_weights.count(t) > 0;
        });
        if (!on_weights) continue;
        from_weights.insert(n.outputs.begin(), n.outputs.end());
        for (size_t i = first; i < l.out.calls.size(); i++) l.out.calls[i].on_weights = true;
    }
    elide_channel_copies(g, l.out);
    return l.out;
}

}  // namespace ansor_graph
