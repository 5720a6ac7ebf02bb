#include "network/task_file.h"

#include <cmath>
#include <fstream>
#include <set>
#include <stdexcept>

namespace ansor {

namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string &where, const std::string &what) {
    throw std::invalid_argument(where + ": " + what);
}

void only_fields(const json &j, const std::set<std::string> &allowed, const std::string &where) {
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (!allowed.count(it.key())) {
            std::string list;
            for (const auto &a : allowed) list += (list.empty() ? "" : ", ") + a;
            fail(where, "unknown field '" + it.key() + "' (fields: " + list + ")");
        }
    }
}

std::string string_field(const json &j, const std::string &field, const std::string &where) {
    if (!j.contains(field)) fail(where, "missing field '" + field + "'");
    if (!j[field].is_string() || j[field].get<std::string>().empty()) {
        fail(where, "field '" + field + "' must be a non-empty string");
    }
    return j[field].get<std::string>();
}

double positive_number(const json &v, const std::string &field, const std::string &where) {
    if (!v.is_number() || !(v.get<double>() > 0) || !std::isfinite(v.get<double>())) {
        fail(where, "field '" + field + "' must be a positive number, got " + v.dump());
    }
    return v.get<double>();
}

std::vector<std::string> network_names(const json &v, const std::string &where) {
    std::vector<std::string> names;
    if (v.is_string()) names.push_back(v.get<std::string>());
    else if (v.is_array()) {
        for (const auto &n : v) {
            if (!n.is_string()) fail(where, "'networks' must hold strings, got " + n.dump());
            names.push_back(n.get<std::string>());
        }
    } else {
        fail(where, "'networks' must be a string or an array of strings");
    }
    std::set<std::string> seen;
    for (const auto &n : names) {
        if (n.empty()) fail(where, "empty network name");
        if (!seen.insert(n).second) fail(where, "network '" + n + "' listed twice");
    }
    if (names.empty()) fail(where, "'networks' is empty");
    return names;
}

GeneratorParamValues param_values(const json &v, const std::string &where) {
    if (!v.is_object()) fail(where, "'params' must be an object of name: value");
    GeneratorParamValues out;
    for (auto it = v.begin(); it != v.end(); ++it) {
        const json &x = it.value();
        if (x.is_number_integer()) out[it.key()] = std::to_string(x.get<long long>());
        else if (x.is_string()) out[it.key()] = x.get<std::string>();
        else if (x.is_boolean()) out[it.key()] = x.get<bool>() ? "true" : "false";
        else fail(where, "param '" + it.key() + "' must be an integer, string or boolean, got " + x.dump());
    }
    return out;
}

}  // namespace

int TaskFile::network_index(const std::string &name) const {
    for (size_t i = 0; i < networks.size(); i++)
        if (networks[i].name == name) return (int)i;
    throw std::out_of_range(path + ": no network '" + name + "'");
}

TaskFile parse_task_file(const json &j, const std::string &origin) {
    TaskFile f;
    f.path = origin;
    if (!j.is_object()) fail(origin, "a task file is a JSON object with a 'tasks' array");
    only_fields(j, {"network", "networks", "tasks", "description"}, origin);
    std::optional<std::string> default_network;
    if (j.contains("network")) default_network = string_field(j, "network", origin);

    auto add_network = [&](const std::string &name) -> NetworkSpec & {
        for (auto &n : f.networks)
            if (n.name == name) return n;
        f.networks.push_back({name, std::nullopt});
        return f.networks.back();
    };
    if (default_network) add_network(*default_network);
    if (j.contains("networks")) {
        const json &nets = j["networks"];
        if (!nets.is_object()) fail(origin, "top-level 'networks' must be an object: name -> {latency_requirement_ms}");
        for (auto it = nets.begin(); it != nets.end(); ++it) {
            std::string where = origin + ": network '" + it.key() + "'";
            if (!it.value().is_object()) fail(where, "must be an object");
            only_fields(it.value(), {"latency_requirement_ms", "description"}, where);
            NetworkSpec &n = add_network(it.key());
            if (it.value().contains("latency_requirement_ms"))
                n.latency_requirement_ms =
                    positive_number(it.value()["latency_requirement_ms"], "latency_requirement_ms", where);
        }
    }

    if (!j.contains("tasks") || !j["tasks"].is_array() || j["tasks"].empty()) {
        fail(origin, "'tasks' must be a non-empty array");
    }
    std::set<std::string> names;
    for (size_t i = 0; i < j["tasks"].size(); i++) {
        const json &t = j["tasks"][i];
        std::string where = origin + ": task " + std::to_string(i);
        if (!t.is_object()) fail(where, "must be an object");
        if (t.contains("name") && t["name"].is_string()) where += " ('" + t["name"].get<std::string>() + "')";
        only_fields(t, {"name", "generator", "params", "weight", "networks", "family", "reference_ms", "comment"},
                    where);
        TaskSpec s;
        s.name = string_field(t, "name", where);
        if (!names.insert(s.name).second) fail(where, "task name '" + s.name + "' is used twice");
        s.generator = string_field(t, "generator", where);
        if (t.contains("params")) s.params = param_values(t["params"], where);
        if (t.contains("weight")) s.weight = positive_number(t["weight"], "weight", where);
        if (t.contains("networks")) s.networks = network_names(t["networks"], where);
        else if (default_network) s.networks = {*default_network};
        else fail(where, "no 'networks' and no file-level 'network'");
        for (const auto &n : s.networks) add_network(n);
        if (t.contains("family")) s.family = string_field(t, "family", where);
        if (t.contains("reference_ms")) s.reference_ms = positive_number(t["reference_ms"], "reference_ms", where);
        f.tasks.push_back(std::move(s));
    }
    return f;
}

TaskFile load_task_file(const std::string &path) {
    std::ifstream in(path);
    if (!in) throw std::invalid_argument("cannot read task file " + path);
    json j;
    try {
        j = json::parse(in);
    } catch (const json::parse_error &e) {
        throw std::invalid_argument(path + ": not JSON (" + e.what() + ")");
    }
    return parse_task_file(j, path);
}

}  // namespace ansor
