#include "numeric_check.h"
#include "substitution.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace taso {

namespace {

using nlohmann::json;

std::string ref_str(const InputFamily &family, const TensorRef &r) {
    if (r.op < 0) return family.inputs.at(r.index).name;
    return "%" + std::to_string(r.op) + (r.port ? "." + std::to_string(r.port) : "");
}

json attrs_json(const PatternOp &op) {
    json a = json::object();
    switch (op.kind) {
    case OpKind::Concat:
    case OpKind::Split:
        a["axis"] = op.attrs.axis;
        break;
    case OpKind::Conv2d:
    case OpKind::Conv2dBias:
    case OpKind::Conv2dBiasAdd:
        a["stride"] = op.attrs.stride;
        a["padding"] = op.attrs.padding == Padding::Same ? "same" : "valid";
        a["activation"] = op.attrs.activation == Activation::Relu ? "relu" : "none";
        break;
    case OpKind::Enlarge:
        a["kernel"] = op.attrs.kernel;
        break;
    default:
        break;
    }
    return a;
}

json graph_json(const InputFamily &family, const PatternGraph &g) {
    auto types = infer_graph(family, g);
    std::vector<TensorType> input_types;
    json ops = json::array();
    for (const PatternOp &op : g.ops) {
        json o;
        o["op"] = op_name(op.kind);
        json a = attrs_json(op);
        if (!a.empty()) o["attrs"] = a;
        o["operands"] = json::array();
        for (const TensorRef &r : op.operands) o["operands"].push_back(ref_str(family, r));
        if (op.kind == OpKind::Split) {
            const TensorType &t = type_of(family, types, op.operands[0], input_types);
            o["left"] = t.splits[op.attrs.axis]->left.str(family.symbols);
        }
        ops.push_back(o);
    }
    json outs = json::array();
    for (const TensorRef &r : g.outputs) outs.push_back(ref_str(family, r));
    return json{{"ops", ops}, {"outputs", outs}};
}

json substitution_json(const Substitution &s) {
    json j;
    j["family"] = s.family.name;
    json inputs = json::array();
    std::map<std::string, std::vector<std::string>> constraints;
    for (const InputSpec &in : s.family.inputs) {
        json shape = json::array();
        for (size_t i = 0; i < in.shape.size(); i++) {
            shape.push_back(in.shape[i].str(s.family.symbols));
            if (in.shape[i].symbols.size() == 1 && in.shape[i].constant == 0)
                constraints[s.family.symbols.name(in.shape[i].symbols[0])].push_back(in.name + "." +
                                                                                   std::to_string(i));
        }
        inputs.push_back(json{{"name", in.name}, {"kind", input_kind_name(in.kind)}, {"shape", shape}});
    }
    j["inputs"] = inputs;
    j["source"] = graph_json(s.family, s.source);
    j["target"] = graph_json(s.family, s.target);
    j["outputs"] = json::array();
    for (auto [a, b] : s.outputs) j["outputs"].push_back(json::array({a, b}));
    j["constraints"] = constraints;
    return j;
}

// Reading -------------------------------------------------------------------

struct Where {
    std::string origin;
    std::string at;
    [[noreturn]] void fail(const std::string &what) const {
        throw std::runtime_error(origin + ": " + at + ": " + what);
    }
};

const json &field(const json &j, const char *name, const Where &w) {
    if (!j.is_object() || !j.contains(name)) w.fail(std::string("missing \"") + name + "\"");
    return j.at(name);
}

TensorRef parse_ref(const std::string &text, const InputFamily &family, int num_ops, const Where &w) {
    if (!text.empty() && text[0] == '%') {
        TensorRef r;
        size_t dot = text.find('.');
        try {
            r.op = std::stoi(text.substr(1, dot == std::string::npos ? std::string::npos : dot - 1));
            r.port = dot == std::string::npos ? 0 : std::stoi(text.substr(dot + 1));
        } catch (const std::exception &) {
            w.fail("bad operand '" + text + "'");
        }
        if (r.op < 0 || r.op >= num_ops) w.fail("operand '" + text + "' is not an earlier op");
        return r;
    }
    for (size_t i = 0; i < family.inputs.size(); i++)
        if (family.inputs[i].name == text) return TensorRef{-1, (int)i, 0};
    w.fail("unknown operand '" + text + "'");
}

OpAttrs parse_attrs(OpKind kind, const json &o, const Where &w) {
    OpAttrs a;
    if (!o.contains("attrs")) {
        if (kind == OpKind::Concat || kind == OpKind::Split || is_convolution(kind) || kind == OpKind::Enlarge)
            w.fail(std::string("missing \"attrs\" for ") + op_name(kind));
        return a;
    }
    const json &j = o.at("attrs");
    try {
        if (kind == OpKind::Concat || kind == OpKind::Split) a.axis = field(j, "axis", w).get<int>();
        if (kind == OpKind::Enlarge) a.kernel = field(j, "kernel", w).get<int>();
        if (is_convolution(kind)) {
            a.stride = field(j, "stride", w).get<int>();
            std::string pad = field(j, "padding", w).get<std::string>();
            std::string act = field(j, "activation", w).get<std::string>();
            if (pad != "same" && pad != "valid") w.fail("padding must be same or valid, got '" + pad + "'");
            if (act != "none" && act != "relu") w.fail("activation must be none or relu, got '" + act + "'");
            a.padding = pad == "same" ? Padding::Same : Padding::Valid;
            a.activation = act == "relu" ? Activation::Relu : Activation::None;
        }
    } catch (const json::exception &e) {
        w.fail(std::string("bad attrs: ") + e.what());
    }
    return a;
}

PatternGraph parse_graph(const json &j, const InputFamily &family, Where w) {
    PatternGraph g;
    const json &ops = field(j, "ops", w);
    if (!ops.is_array()) w.fail("\"ops\" must be an array");
    std::string base = w.at;
    for (size_t i = 0; i < ops.size(); i++) {
        w.at = base + " op #" + std::to_string(i);
        PatternOp op;
        try {
            op.kind = op_from_name(field(ops[i], "op", w).get<std::string>());
        } catch (const std::runtime_error &e) {
            w.fail(e.what());
        }
        op.attrs = parse_attrs(op.kind, ops[i], w);
        const json &operands = field(ops[i], "operands", w);
        if (!operands.is_array() || (int)operands.size() != num_operands(op.kind))
            w.fail(std::string(op_name(op.kind)) + " takes " + std::to_string(num_operands(op.kind)) + " operands");
        for (const json &r : operands) op.operands.push_back(parse_ref(r.get<std::string>(), family, (int)i, w));
        g.ops.push_back(op);
    }
    w.at = base + " outputs";
    for (const json &r : field(j, "outputs", w)) g.outputs.push_back(parse_ref(r.get<std::string>(), family, (int)g.ops.size(), w));
    w.at = base;
    try {
        infer_graph(family, g);
    } catch (const std::runtime_error &e) {
        w.fail(std::string("ill-shaped: ") + e.what());
    }
    return g;
}

}  // namespace

std::string substitutions_json(const std::vector<Substitution> &subs) {
    json root;
    root["format"] = "ansor-taso-substitutions";
    root["version"] = 1;
    root["substitutions"] = json::array();
    for (const Substitution &s : subs) root["substitutions"].push_back(substitution_json(s));
    return root.dump(1);
}

void save_substitutions(const std::string &path, const std::vector<Substitution> &subs) {
    std::ofstream f(path);
    if (!f) throw std::runtime_error("cannot write '" + path + "'");
    f << substitutions_json(subs) << "\n";
    if (!f) throw std::runtime_error("error writing '" + path + "'");
}

std::vector<Substitution> parse_substitutions(const std::string &text, const std::string &origin) {
    json root;
    try {
        root = json::parse(text);
    } catch (const json::exception &e) {
        throw std::runtime_error(origin + ": not JSON: " + e.what());
    }
    Where w{origin, "top level"};
    if (field(root, "format", w) != "ansor-taso-substitutions") w.fail("\"format\" is not ansor-taso-substitutions");
    if (field(root, "version", w) != 1) w.fail("unsupported \"version\"");
    std::vector<Substitution> out;
    const json &subs = field(root, "substitutions", w);
    for (size_t k = 0; k < subs.size(); k++) {
        const json &j = subs[k];
        Substitution s;
        w.at = "substitution #" + std::to_string(k);
        s.family.name = j.value("family", "");
        for (const json &in : field(j, "inputs", w)) {
            InputSpec spec;
            try {
                spec.name = field(in, "name", w).get<std::string>();
                spec.kind = input_kind_from_name(field(in, "kind", w).get<std::string>());
                for (const json &d : field(in, "shape", w))
                    spec.shape.push_back(parse_dim(d.get<std::string>(), s.family.symbols));
            } catch (const std::exception &e) {
                w.fail("input " + in.dump() + ": " + e.what());
            }
            s.family.inputs.push_back(spec);
        }
        s.source = parse_graph(field(j, "source", w), s.family, Where{origin, w.at + " source"});
        s.target = parse_graph(field(j, "target", w), s.family, Where{origin, w.at + " target"});
        for (const json &p : field(j, "outputs", w)) {
            if (!p.is_array() || p.size() != 2) w.fail("\"outputs\" entries are [source, target] index pairs");
            int a = p[0].get<int>(), b = p[1].get<int>();
            if (a < 0 || a >= (int)s.source.outputs.size() || b < 0 || b >= (int)s.target.outputs.size())
                w.fail("output pair " + p.dump() + " out of range");
            s.outputs.emplace_back(a, b);
        }
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<Substitution> load_substitutions(const std::string &path) {
    std::ifstream f(path);
    if (!f) throw std::runtime_error("cannot read '" + path + "'");
    std::stringstream ss;
    ss << f.rdbuf();
    return parse_substitutions(ss.str(), path);
}

bool check_substitution(const Substitution &sub, const std::map<std::string, int64_t> &sizes, uint64_t seed) {
    std::vector<int64_t> values;
    for (int i = 0; i < sub.family.symbols.size(); i++) {
        auto it = sizes.find(sub.family.symbols.name(i));
        if (it == sizes.end()) throw std::runtime_error("no size given for symbol '" + sub.family.symbols.name(i) + "'");
        if (it->second <= 0) throw std::runtime_error("size of '" + it->first + "' must be positive");
        values.push_back(it->second);
    }
    return numerically_equal(sub.family, sub.source, sub.target, sub.outputs, values, seed, 2);
}

std::string describe(const Substitution &sub) {
    std::string s;
    for (auto [a, b] : sub.outputs)
        s += render(sub.family, sub.source, sub.source.outputs.at(a)) + " = " +
             render(sub.family, sub.target, sub.target.outputs.at(b)) + "\n";
    return s;
}

}  // namespace taso
