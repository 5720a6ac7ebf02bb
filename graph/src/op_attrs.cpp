#include "op_attrs.h"

#include <algorithm>

namespace ansor_graph {

Act parse_act(const std::string &s, const std::string &where) {
    if (s == "none") return Act::kNone;
    if (s == "relu") return Act::kRelu;
    if (s == "relu6") return Act::kRelu6;
    if (s == "gelu") return Act::kGelu;
    if (s == "sigmoid") return Act::kSigmoid;
    throw GraphError(where + ": unknown activation '" + s + "' (none, relu, relu6, gelu, sigmoid)");
}

std::string act_name(Act a) {
    switch (a) {
    case Act::kNone: return "none";
    case Act::kRelu: return "relu";
    case Act::kRelu6: return "relu6";
    case Act::kGelu: return "gelu";
    case Act::kSigmoid: return "sigmoid";
    }
    return "?";
}

int window_out(int in, int k, int s, int p, int d) { return (in + 2 * p - d * (k - 1) - 1) / s + 1; }

AttrReader::AttrReader(const Node &n, std::string where) : node_(n), where_(std::move(where)) {
    if (!n.attrs.is_object()) throw GraphError(where_ + ": field 'attrs' must be an object");
}

void AttrReader::fail(const std::string &key, const std::string &problem) const {
    throw GraphError(where_ + ": attribute '" + key + "' " + problem);
}

const nlohmann::json *AttrReader::find(const std::string &key) {
    used_.push_back(key);
    auto it = node_.attrs.find(key);
    return it == node_.attrs.end() ? nullptr : &*it;
}

int AttrReader::get_int(const std::string &key, int fallback) {
    const nlohmann::json *v = find(key);
    if (!v) return fallback;
    if (!v->is_number_integer()) fail(key, "must be an integer, got " + v->dump());
    return v->get<int>();
}

float AttrReader::get_float(const std::string &key, float fallback) {
    const nlohmann::json *v = find(key);
    if (!v) return fallback;
    if (!v->is_number()) fail(key, "must be a number, got " + v->dump());
    return v->get<float>();
}

bool AttrReader::get_bool(const std::string &key, bool fallback) {
    const nlohmann::json *v = find(key);
    if (!v) return fallback;
    if (!v->is_boolean()) fail(key, "must be true or false, got " + v->dump());
    return v->get<bool>();
}

std::string AttrReader::get_string(const std::string &key, const std::string &fallback) {
    const nlohmann::json *v = find(key);
    if (!v) return fallback;
    if (!v->is_string()) fail(key, "must be a string, got " + v->dump());
    return v->get<std::string>();
}

std::pair<int, int> AttrReader::get_pair(const std::string &key, std::pair<int, int> fallback) {
    const nlohmann::json *v = find(key);
    if (!v) return fallback;
    if (v->is_number_integer()) return {v->get<int>(), v->get<int>()};
    if (v->is_array() && v->size() == 2 && (*v)[0].is_number_integer() && (*v)[1].is_number_integer())
        return {(*v)[0].get<int>(), (*v)[1].get<int>()};
    fail(key, "must be an integer or a list [h, w] of two integers, got " + v->dump());
}

std::vector<int> AttrReader::get_ints(const std::string &key, bool required) {
    const nlohmann::json *v = find(key);
    if (!v) {
        if (required) fail(key, "is required");
        return {};
    }
    if (!v->is_array()) fail(key, "must be a list of integers, got " + v->dump());
    std::vector<int> out;
    for (const auto &x : *v) {
        if (!x.is_number_integer()) fail(key, "must be a list of integers, got " + v->dump());
        out.push_back(x.get<int>());
    }
    return out;
}

void AttrReader::finish() {
    for (auto it = node_.attrs.begin(); it != node_.attrs.end(); ++it) {
        if (std::find(used_.begin(), used_.end(), it.key()) == used_.end())
            fail(it.key(), "is not an attribute of " + node_.op);
    }
}

bool is_square_dense_conv(const ConvAttrs &a, int kh, int kw) {
    return a.groups == 1 && a.dh == 1 && a.dw == 1 && kh == kw && a.sh == a.sw && a.ph == a.pw;
}

ConvAttrs conv_attrs(const Node &n, const std::string &where) {
    AttrReader r(n, where);
    ConvAttrs a;
    std::tie(a.sh, a.sw) = r.get_pair("stride", {1, 1});
    std::tie(a.ph, a.pw) = r.get_pair("padding", {0, 0});
    std::tie(a.dh, a.dw) = r.get_pair("dilation", {1, 1});
    a.groups = r.get_int("groups", 1);
    a.act = parse_act(r.get_string("activation", "none"), where + ": attribute 'activation'");
    const std::string layout = r.get_string("layout", "NHWC");
    r.finish();
    if (layout != "NHWC" && layout != "NCHW") r.fail("layout", "must be NHWC or NCHW, got '" + layout + "'");
    a.layout = parse_layout(layout, where + ": attribute 'layout'");
    if (a.sh < 1 || a.sw < 1) r.fail("stride", "must be >= 1");
    if (a.ph < 0 || a.pw < 0) r.fail("padding", "must be >= 0");
    if (a.dh < 1 || a.dw < 1) r.fail("dilation", "must be >= 1");
    if (a.groups < 1) r.fail("groups", "must be >= 1");
    if (a.act == Act::kSigmoid) r.fail("activation", "sigmoid is not fused into conv2d (use a sigmoid node)");
    return a;
}

ConvTransposeAttrs conv_transpose_attrs(const Node &n, const std::string &where) {
    AttrReader r(n, where);
    ConvTransposeAttrs a;
    a.s = r.get_int("stride", 1);
    a.p = r.get_int("padding", 0);
    r.finish();
    if (a.s < 1) r.fail("stride", "must be >= 1");
    if (a.p < 0) r.fail("padding", "must be >= 0");
    return a;
}

DenseAttrs dense_attrs(const Node &n, const std::string &where) {
    AttrReader r(n, where);
    DenseAttrs a;
    a.act = parse_act(r.get_string("activation", "none"), where + ": attribute 'activation'");
    r.finish();
    if (a.act == Act::kSigmoid) r.fail("activation", "sigmoid is not fused into dense (use a sigmoid node)");
    return a;
}

PoolAttrs pool_attrs(const Node &n, const std::string &where) {
    AttrReader r(n, where);
    PoolAttrs a;
    a.is_max = n.op == "max_pool2d";
    a.global = r.get_bool("global", false);
    if (!a.global) {
        a.k = r.get_int("kernel", 0);
        a.s = r.get_int("stride", a.k);
        a.p = r.get_int("padding", 0);
        if (a.k < 1) r.fail("kernel", "is required (a square window size >= 1) unless 'global' is true");
        if (a.s < 1) r.fail("stride", "must be >= 1");
        if (a.p < 0 || a.p >= a.k) r.fail("padding", "must be in [0, kernel)");
    }
    r.finish();
    return a;
}

AxisAttrs axis_attrs(const Node &n, const std::string &where, int rank) {
    AttrReader r(n, where);
    AxisAttrs a;
    a.axis = r.get_int("axis", -1);
    if (a.axis < -rank || a.axis >= rank)
        r.fail("axis", "is " + std::to_string(a.axis) + ", out of range for rank " + std::to_string(rank));
    if (a.axis < 0) a.axis += rank;
    if (n.op == "split") {
        a.sizes = r.get_ints("sizes", true);
        for (int s : a.sizes)
            if (s < 1) r.fail("sizes", "must be positive");
    }
    r.finish();
    return a;
}

TransposeAttrs transpose_attrs(const Node &n, const std::string &where) {
    AttrReader r(n, where);
    TransposeAttrs a;
    a.perm = r.get_ints("perm", true);
    a.layout = parse_layout(r.get_string("layout", "plain"), where + ": attribute 'layout'");
    r.finish();
    std::vector<int> sorted = a.perm;
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < sorted.size(); i++)
        if (sorted[i] != (int)i) r.fail("perm", "must be a permutation of 0.." + std::to_string(sorted.size() - 1));
    if (a.perm.empty() || a.perm.size() > 4) r.fail("perm", "must have 1 to 4 entries");
    return a;
}

ReshapeAttrs reshape_attrs(const Node &n, const std::string &where, const Shape &in) {
    AttrReader r(n, where);
    ReshapeAttrs a;
    a.shape = r.get_ints("shape", true);
    a.layout = parse_layout(r.get_string("layout", "plain"), where + ": attribute 'layout'");
    r.finish();
    int64_t known = 1;
    int unknown = -1;
    for (size_t i = 0; i < a.shape.size(); i++) {
        if (a.shape[i] == -1) {
            if (unknown >= 0) r.fail("shape", "may hold -1 only once");
            unknown = (int)i;
        } else if (a.shape[i] < 1) {
            r.fail("shape", "entries must be positive or -1");
        } else {
            known *= a.shape[i];
        }
    }
    const int64_t total = element_count(in);
    if (unknown >= 0) {
        if (total % known) r.fail("shape", shape_string(a.shape) + " cannot hold " + std::to_string(total) + " elements");
        a.shape[unknown] = (int)(total / known);
    }
    if (element_count(a.shape) != total)
        r.fail("shape", shape_string(a.shape) + " has " + std::to_string(element_count(a.shape)) +
                            " elements, the input " + shape_string(in) + " has " + std::to_string(total));
    return a;
}

NormAttrs norm_attrs(const Node &n, const std::string &where) {
    AttrReader r(n, where);
    NormAttrs a;
    if (n.op == "batch_norm") a.eps = r.get_float("epsilon", 1e-5f);
    r.finish();
    if (!(a.eps > 0)) r.fail("epsilon", "must be > 0");
    return a;
}

EnlargeAttrs enlarge_attrs(const Node &n, const std::string &where) {
    AttrReader r(n, where);
    EnlargeAttrs a;
    std::tie(a.kh, a.kw) = r.get_pair("kernel", {0, 0});
    r.finish();
    if (a.kh < 1 || a.kw < 1) r.fail("kernel", "is required: the enlarged kernel size [h, w]");
    return a;
}

void no_attrs(const Node &n, const std::string &where) { AttrReader(n, where).finish(); }

}  // namespace ansor_graph
