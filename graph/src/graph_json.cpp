#include "graph_json.h"

#include "shape_inference.h"

#include <algorithm>
#include <fstream>
#include <set>

namespace ansor_graph {

using nlohmann::json;

namespace {

void only_fields(const json &o, const std::vector<std::string> &allowed, const std::string &where) {
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end()) {
            std::string list;
            for (const auto &a : allowed) list += (list.empty() ? "" : ", ") + a;
            throw GraphError(where + ": unknown field '" + it.key() + "' (allowed: " + list + ")");
        }
    }
}

const json &required(const json &o, const std::string &key, const std::string &where) {
    auto it = o.find(key);
    if (it == o.end()) throw GraphError(where + ": missing field '" + key + "'");
    return *it;
}

std::string string_field(const json &o, const std::string &key, const std::string &where) {
    const json &v = required(o, key, where);
    if (!v.is_string() || v.get<std::string>().empty())
        throw GraphError(where + ": field '" + key + "' must be a non-empty string, got " + v.dump());
    return v.get<std::string>();
}

std::vector<std::string> names_field(const json &o, const std::string &key, const std::string &where) {
    const json &v = required(o, key, where);
    if (!v.is_array()) throw GraphError(where + ": field '" + key + "' must be a list of tensor names");
    std::vector<std::string> out;
    for (const auto &x : v) {
        if (!x.is_string() || x.get<std::string>().empty())
            throw GraphError(where + ": field '" + key + "' must be a list of tensor names, got " + x.dump());
        out.push_back(x.get<std::string>());
    }
    return out;
}

Shape shape_field(const json &o, const std::string &where) {
    const json &v = required(o, "shape", where);
    if (!v.is_array() || v.empty() || v.size() > 6)
        throw GraphError(where + ": field 'shape' must be a list of 1 to 6 positive integers, got " + v.dump());
    Shape s;
    for (const auto &x : v) {
        if (!x.is_number_integer() || x.get<long long>() < 1 || x.get<long long>() > (1 << 30))
            throw GraphError(where + ": field 'shape' must be a list of positive integers, got " + v.dump());
        s.push_back(x.get<int>());
    }
    return s;
}

// '@' marks the tensors the loader and the executor add (layout conversions, zero biases).
void check_name(const std::string &name, const std::string &where) {
    if (name.find('@') != std::string::npos)
        throw GraphError(where + ": tensor name '" + name + "' contains '@', which is reserved for tensors the loader adds");
}

void add_tensor(Graph &g, TensorInfo t, const std::string &where) {
    check_name(t.name, where);
    if (g.tensors.count(t.name)) throw GraphError(where + ": tensor '" + t.name + "' is defined twice");
    g.tensors[t.name] = std::move(t);
}

TensorInfo parse_declared(const json &e, TensorKind kind, const std::string &where) {
    if (!e.is_object()) throw GraphError(where + ": must be an object");
    TensorInfo t;
    t.kind = kind;
    t.name = string_field(e, "name", where);
    const std::string named = where + " '" + t.name + "'";
    t.shape = shape_field(e, named);
    t.layout = t.shape.size() == 4 && kind == TensorKind::kInput ? Layout::kNHWC : Layout::kPlain;
    if (e.contains("layout")) {
        if (!e["layout"].is_string()) throw GraphError(named + ": field 'layout' must be a string");
        t.layout = parse_layout(e["layout"].get<std::string>(), named + ": field 'layout'");
        if (t.layout != Layout::kPlain && t.shape.size() != 4)
            throw GraphError(named + ": field 'layout' " + layout_name(t.layout) + " needs a 4-D shape, got " +
                             shape_string(t.shape));
    }
    if (kind == TensorKind::kInput) {
        only_fields(e, {"name", "shape", "layout"}, named);
        return t;
    }
    only_fields(e, {"name", "shape", "layout", "init", "range"}, named);
    if (e.contains("init")) {
        if (!e["init"].is_string()) throw GraphError(named + ": field 'init' must be a string");
        t.init = e["init"].get<std::string>();
    }
    if (t.init != "fan_in" && t.init != "uniform" && t.init != "ones" && t.init != "zeros" && t.init != "identity")
        throw GraphError(named + ": field 'init' is '" + t.init + "' (fan_in, uniform, ones, zeros, identity)");
    if (t.init == "identity") {
        const Shape &s = t.shape;
        bool ok = s.size() >= 2 && s[s.size() - 1] == s[s.size() - 2];
        for (size_t d = 0; d + 2 < s.size(); d++) ok = ok && s[d] == 1;
        if (!ok)
            throw GraphError(named + ": \"init\": \"identity\" needs a shape [1, .., 1, C, C], got " + shape_string(s));
    }
    if (e.contains("range")) {
        const json &r = e["range"];
        if (t.init != "uniform") throw GraphError(named + ": field 'range' needs \"init\": \"uniform\"");
        if (!r.is_array() || r.size() != 2 || !r[0].is_number() || !r[1].is_number() ||
            !(r[0].get<float>() <= r[1].get<float>()))
            throw GraphError(named + ": field 'range' must be [low, high] with low <= high, got " + r.dump());
        t.low = r[0].get<float>();
        t.high = r[1].get<float>();
    } else if (t.init == "uniform") {
        throw GraphError(named + ": \"init\": \"uniform\" needs field 'range' [low, high]");
    }
    return t;
}

// A transpose node converting tensor `name` to layout `want` (NHWC or
// NCHW), once per tensor and layout.
std::string converted_to(Graph &g, const std::string &name, Layout want, std::vector<Node> &out,
                         const std::string &where) {
    const std::string suffix = want == Layout::kNHWC ? "nhwc" : "nchw";
    const std::string converted = name + "@" + suffix;
    if (g.tensors.count(converted)) return converted;
    const Node t = layout_conversion_node(name + "@to_" + suffix, name, converted, g.tensor(name).layout, want);
    infer_node(g, t, where + " (layout conversion of '" + name + "')");
    out.push_back(t);
    return converted;
}

}  // namespace

Graph parse_graph(const json &j, const std::string &origin) {
    if (!j.is_object()) throw GraphError(origin + ": a graph file must hold a JSON object");
    only_fields(j, {"name", "description", "inputs", "weights", "nodes", "outputs"}, origin);
    Graph g;
    g.name = string_field(j, "name", origin);
    for (const char *list : {"inputs", "weights", "nodes"}) {
        if (!required(j, list, origin).is_array())
            throw GraphError(origin + ": field '" + list + "' must be a list");
    }
    int i = 0;
    for (const json &e : j["inputs"]) {
        TensorInfo t = parse_declared(e, TensorKind::kInput, origin + ": inputs[" + std::to_string(i++) + "]");
        g.inputs.push_back(t.name);
        add_tensor(g, t, origin + ": inputs");
    }
    if (g.inputs.empty()) throw GraphError(origin + ": field 'inputs' is empty");
    i = 0;
    for (const json &e : j["weights"]) {
        TensorInfo t = parse_declared(e, TensorKind::kWeight, origin + ": weights[" + std::to_string(i++) + "]");
        g.weights.push_back(t.name);
        add_tensor(g, t, origin + ": weights");
    }
    std::set<std::string> node_names;
    i = 0;
    for (const json &e : j["nodes"]) {
        std::string where = origin + ": nodes[" + std::to_string(i++) + "]";
        if (!e.is_object()) throw GraphError(where + ": must be an object");
        Node n;
        n.name = string_field(e, "name", where);
        where = origin + ": node '" + n.name + "'";
        only_fields(e, {"name", "op", "inputs", "outputs", "attrs"}, where);
        if (!node_names.insert(n.name).second) throw GraphError(where + ": node name used twice");
        n.op = string_field(e, "op", where);
        const auto &ops = known_ops();
        if (std::find(ops.begin(), ops.end(), n.op) == ops.end()) {
            std::string list;
            for (const auto &o : ops) list += (list.empty() ? "" : ", ") + o;
            throw GraphError(where + ": field 'op': unknown operator '" + n.op + "' (known: " + list + ")");
        }
        where += " (" + n.op + ")";
        n.inputs = names_field(e, "inputs", where);
        n.outputs = names_field(e, "outputs", where);
        if (e.contains("attrs")) n.attrs = e["attrs"];
        for (size_t k = 0; k < n.inputs.size(); k++) {
            if (!g.tensors.count(n.inputs[k]))
                throw GraphError(where + ": field 'inputs'[" + std::to_string(k) + "]: tensor '" + n.inputs[k] +
                                 "' is not an input, a weight or an earlier node's output");
        }
        for (size_t k = 0; k < n.outputs.size(); k++) {
            check_name(n.outputs[k], where + ": field 'outputs'[" + std::to_string(k) + "]");
            if (g.tensors.count(n.outputs[k]))
                throw GraphError(where + ": field 'outputs'[" + std::to_string(k) + "]: tensor '" + n.outputs[k] +
                                 "' is already defined");
        }
        // Layout conversions this node needs go before it.
        for (size_t k = 0; k < n.inputs.size(); k++) {
            const TensorInfo &t = g.tensor(n.inputs[k]);
            Layout want = required_layout(n, (int)k, where);
            bool mixed = (n.op == "add" || n.op == "mul" || n.op == "concat") && t.layout == Layout::kNCHW &&
                         std::any_of(n.inputs.begin(), n.inputs.end(),
                                     [&](const std::string &x) { return g.tensor(x).layout == Layout::kNHWC; });
            if (mixed) want = Layout::kNHWC;
            if (want != Layout::kPlain && t.layout != Layout::kPlain && t.layout != want)
                n.inputs[k] = converted_to(g, n.inputs[k], want, g.nodes, where);
        }
        infer_node(g, n, where);
        g.nodes.push_back(n);
    }
    g.outputs = names_field(j, "outputs", origin);
    if (g.outputs.empty()) throw GraphError(origin + ": field 'outputs' is empty");
    for (const auto &o : g.outputs) {
        if (!g.tensors.count(o)) throw GraphError(origin + ": field 'outputs': tensor '" + o + "' is not defined");
    }
    return g;
}

Graph load_graph(const std::string &path) {
    std::ifstream in(path);
    if (!in) throw GraphError(path + ": cannot open");
    json j;
    try {
        in >> j;
    } catch (const json::exception &e) {
        throw GraphError(path + ": not valid JSON: " + e.what());
    }
    return parse_graph(j, path);
}

}  // namespace ansor_graph
