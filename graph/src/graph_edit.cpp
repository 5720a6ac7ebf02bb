#include "graph_edit.h"

#include "shape_inference.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <queue>

namespace ansor_graph {

Graph rebuild_graph(const Graph &g, const std::vector<Node> &nodes) {
    Graph out;
    out.name = g.name;
    out.inputs = g.inputs;
    out.weights = g.weights;
    out.outputs = g.outputs;
    for (const auto &n : g.inputs) out.tensors[n] = g.tensor(n);
    for (const auto &n : g.weights) out.tensors[n] = g.tensor(n);

    // Kahn's algorithm, always taking the earliest ready node in list order.
    std::map<std::string, int> producer;
    for (size_t i = 0; i < nodes.size(); i++) {
        for (const auto &t : nodes[i].outputs) {
            if (out.tensors.count(t) || !producer.emplace(t, (int)i).second)
                throw GraphError("graph '" + g.name + "': node '" + nodes[i].name + "': tensor '" + t +
                                 "' is written twice");
        }
    }
    std::vector<int> missing(nodes.size(), 0);
    std::vector<std::vector<int>> users(nodes.size());
    for (size_t i = 0; i < nodes.size(); i++) {
        for (const auto &t : nodes[i].inputs) {
            auto it = producer.find(t);
            if (it != producer.end()) {
                missing[i]++;
                users[it->second].push_back((int)i);
            } else if (!out.tensors.count(t)) {
                throw GraphError("graph '" + g.name + "': node '" + nodes[i].name + "': input '" + t +
                                 "' is not an input, a weight or a node's output");
            }
        }
    }
    std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
    for (size_t i = 0; i < nodes.size(); i++)
        if (!missing[i]) ready.push((int)i);
    while (!ready.empty()) {
        int i = ready.top();
        ready.pop();
        infer_node(out, nodes[i], "graph '" + g.name + "': node '" + nodes[i].name + "' (" + nodes[i].op + ")");
        out.nodes.push_back(nodes[i]);
        for (int u : users[i])
            if (--missing[u] == 0) ready.push(u);
    }
    if (out.nodes.size() != nodes.size())
        throw GraphError("graph '" + g.name + "': the edited nodes form a cycle");
    for (const auto &o : out.outputs)
        if (!out.tensors.count(o)) throw GraphError("graph '" + g.name + "': output '" + o + "' is no longer computed");
    return out;
}

std::set<std::string> used_names(const Graph &g) {
    std::set<std::string> s;
    for (const auto &[name, t] : g.tensors) s.insert(name);
    for (const auto &n : g.nodes) s.insert(n.name);
    return s;
}

std::string fresh_name(std::set<std::string> &taken, const std::string &prefix) {
    for (int i = 0;; i++) {
        std::string name = prefix + std::to_string(i);
        if (taken.insert(name).second) return name;
    }
}

namespace {

uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}
uint64_t hash_string(const std::string &s) { return std::hash<std::string>{}(s); }

}  // namespace

uint64_t canonical_hash(const Graph &g) {
    std::map<std::string, uint64_t> h;
    for (const auto &n : g.inputs) h[n] = mix(1, hash_string(n));
    for (const auto &n : g.weights) h[n] = mix(2, hash_string(n));
    std::vector<uint64_t> node_hashes;
    for (const Node &n : g.nodes) {  // in topological order
        uint64_t v = mix(hash_string(n.op), hash_string(n.attrs.dump()));
        for (const auto &in : n.inputs) v = mix(v, h.at(in));
        for (size_t p = 0; p < n.outputs.size(); p++) h[n.outputs[p]] = mix(v, p + 7);
        node_hashes.push_back(v);
    }
    std::sort(node_hashes.begin(), node_hashes.end());
    uint64_t v = 3;
    for (const auto &o : g.outputs) v = mix(v, h.at(o));
    for (uint64_t x : node_hashes) v = mix(v, x);
    return v;
}

namespace {

std::string file_name(const std::string &name) {
    std::string out;
    for (char c : name) out += c == '@' ? std::string("__at_") : std::string(1, c);
    return out;
}

nlohmann::json names_json(const std::vector<std::string> &names) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto &n : names) a.push_back(file_name(n));
    return a;
}

}  // namespace

nlohmann::json graph_to_json(const Graph &g) {
    using nlohmann::json;
    json j;
    j["name"] = g.name;
    j["inputs"] = json::array();
    for (const auto &n : g.inputs) {
        const TensorInfo &t = g.tensor(n);
        j["inputs"].push_back({{"name", file_name(n)}, {"shape", t.shape}, {"layout", layout_name(t.layout)}});
    }
    j["weights"] = json::array();
    for (const auto &n : g.weights) {
        const TensorInfo &t = g.tensor(n);
        json w = {{"name", file_name(n)}, {"shape", t.shape}, {"init", t.init}};
        if (t.init == "uniform") w["range"] = {t.low, t.high};
        if (t.layout != Layout::kPlain) w["layout"] = layout_name(t.layout);
        j["weights"].push_back(w);
    }
    j["nodes"] = json::array();
    for (const Node &n : g.nodes) {
        json e = {{"name", file_name(n.name)}, {"op", n.op}, {"inputs", names_json(n.inputs)},
                  {"outputs", names_json(n.outputs)}};
        if (!n.attrs.empty()) e["attrs"] = n.attrs;
        j["nodes"].push_back(e);
    }
    j["outputs"] = names_json(g.outputs);
    return j;
}

void save_graph(const Graph &g, const std::string &path) {
    std::ofstream out(path);
    if (!out) throw GraphError(path + ": cannot write");
    out << graph_to_json(g).dump(1) << "\n";
    if (!out) throw GraphError(path + ": write failed");
}

std::map<std::string, std::vector<int>> consumers_of(const Graph &g) {
    std::map<std::string, std::vector<int>> c;
    for (size_t i = 0; i < g.nodes.size(); i++)
        for (const auto &t : g.nodes[i].inputs) c[t].push_back((int)i);
    return c;
}

}  // namespace ansor_graph
