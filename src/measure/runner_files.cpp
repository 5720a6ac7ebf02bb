#include "measure/runner_files.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ansor {

using nlohmann::json;

size_t RunnerBuffer::elements() const {
    size_t n = 1;
    for (int64_t e : extent) n *= (size_t)std::max<int64_t>(e, 0);
    return n;
}

std::string runner_type_name(halide_type_t t) {
    switch (t.code) {
    case halide_type_int: return "int" + std::to_string(t.bits);
    case halide_type_uint: return t.bits == 1 ? "bool" : "uint" + std::to_string(t.bits);
    case halide_type_float: return "float" + std::to_string(t.bits);
    case halide_type_handle: return "handle" + std::to_string(t.bits);
    case halide_type_bfloat: return "bfloat" + std::to_string(t.bits);
    }
    return "unknown";
}

halide_type_t parse_runner_type(const std::string &name) {
    if (name == "bool") return halide_type_t(halide_type_uint, 1);
    const std::pair<const char *, halide_type_code_t> codes[] = {{"uint", halide_type_uint},
                                                                  {"int", halide_type_int},
                                                                  {"float", halide_type_float},
                                                                  {"bfloat", halide_type_bfloat},
                                                                  {"handle", halide_type_handle}};
    for (const auto &[prefix, code] : codes) {
        const std::string p = prefix;
        if (name.compare(0, p.size(), p) != 0) continue;
        const std::string bits = name.substr(p.size());
        if (bits == "8" || bits == "16" || bits == "32" || bits == "64") {
            return halide_type_t(code, (uint8_t)std::stoi(bits));
        }
    }
    throw std::runtime_error("'" + name + "' is not a buffer type (int8..64, uint8..64, float16/32/64, bfloat16, bool)");
}

namespace {

std::string directory_of(const std::string &path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? "." : path.substr(0, slash);
}

std::string resolve(const std::string &dir, const std::string &file) {
    if (file.empty() || file[0] == '/') return file;
    return dir + "/" + file;
}

json read_json(const std::string &path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    try {
        return json::parse(in);
    } catch (const json::exception &e) {
        throw std::runtime_error(path + " is not valid JSON: " + e.what());
    }
}

RunnerBuffer buffer_from(const json &j, const std::string &path, const std::string &dir, bool needs_file) {
    RunnerBuffer b;
    try {
        b.name = j.at("name").get<std::string>();
        if (j.contains("type")) b.type = parse_runner_type(j.at("type").get<std::string>());
        b.extent = j.at("extent").get<std::vector<int64_t>>();
        b.min = j.contains("min") ? j.at("min").get<std::vector<int64_t>>() : std::vector<int64_t>(b.extent.size(), 0);
        if (needs_file || j.contains("file")) b.file = resolve(dir, j.at("file").get<std::string>());
    } catch (const json::exception &e) {
        throw std::runtime_error(path + ": a buffer entry " + j.dump() + " is malformed: " + e.what());
    }
    if (b.min.size() != b.extent.size()) {
        throw std::runtime_error(path + ": buffer '" + b.name + "' has " + std::to_string(b.min.size()) + " mins but " +
                                 std::to_string(b.extent.size()) + " extents");
    }
    return b;
}

json buffer_json(const RunnerBuffer &b) {
    json j = {{"name", b.name}, {"min", b.min}, {"extent", b.extent}};
    if (b.type.bits) j["type"] = runner_type_name(b.type);
    if (!b.file.empty()) j["file"] = b.file;
    return j;
}

}  // namespace

RunnerSpec read_runner_spec(const std::string &path) {
    const json j = read_json(path);
    const std::string dir = directory_of(path);
    RunnerSpec spec;
    for (const json &b : j.value("inputs", json::array())) spec.inputs.push_back(buffer_from(b, path, dir, true));
    for (const json &b : j.value("outputs", json::array())) spec.outputs.push_back(buffer_from(b, path, dir, false));
    for (const json &s : j.value("scalars", json::array())) {
        if (!s.contains("name") || !s.contains("value") || !s["value"].is_number()) {
            throw std::runtime_error(path + ": a scalar entry " + s.dump() + " needs a name and a numeric value");
        }
        spec.scalars.push_back({s["name"].get<std::string>(), s["value"].get<double>()});
    }
    for (const RunnerBuffer &b : spec.inputs) {
        if (!b.type.bits) throw std::runtime_error(path + ": input '" + b.name + "' has no type");
    }
    return spec;
}

void write_runner_spec(const std::string &path, const RunnerSpec &spec) {
    json j = {{"inputs", json::array()}, {"scalars", json::array()}, {"outputs", json::array()}};
    for (const RunnerBuffer &b : spec.inputs) j["inputs"].push_back(buffer_json(b));
    for (const RunnerBuffer &b : spec.outputs) j["outputs"].push_back(buffer_json(b));
    for (const RunnerScalar &s : spec.scalars) j["scalars"].push_back({{"name", s.name}, {"value", s.value}});
    std::ofstream out(path);
    out << j.dump(1) << "\n";
    if (!out) throw std::runtime_error("cannot write " + path);
}

std::vector<RunnerBuffer> read_runner_outputs(const std::string &path) {
    const json j = read_json(path);
    std::vector<RunnerBuffer> outputs;
    for (const json &b : j.value("outputs", json::array())) {
        outputs.push_back(buffer_from(b, path, directory_of(path), true));
    }
    return outputs;
}

std::string last_json_text(const std::string &output) {
    std::istringstream lines(output);
    std::string line, last;
    while (std::getline(lines, line)) {
        if (!line.empty() && line[0] == '{') last = line;
    }
    return last;
}

void read_raw_file_into(const std::string &path, void *destination, size_t bytes) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) throw std::runtime_error("cannot read " + path);
    const size_t size = (size_t)in.tellg();
    if (size != bytes) {
        throw std::runtime_error(path + " holds " + std::to_string(size) + " bytes where " + std::to_string(bytes) +
                                 " were expected");
    }
    in.seekg(0);
    in.read(static_cast<char *>(destination), (std::streamsize)bytes);
    if (!in) throw std::runtime_error("cannot read " + path);
}

void write_raw_file(const std::string &path, const void *data, size_t bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(static_cast<const char *>(data), (std::streamsize)bytes);
    if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace ansor
