#include "model/model_file.h"

#include "features/program_features.h"
#include "util/errors.h"

#include <nlohmann/json.hpp>

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <type_traits>

namespace ansor {

namespace {

const char *const kFormat = "ansor-cost-model";
constexpr int kVersion = 1;

bool file_exists(const std::string &path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The file's bytes, gunzipped if it is gzip-compressed (zlib reads plain files as they are).
std::string read_maybe_gzipped(const std::string &path) {
    gzFile in = gzopen(path.c_str(), "rb");
    if (!in) throw UserError("cannot read the cost model file " + path);
    std::string bytes;
    char buf[1 << 16];
    int n;
    while ((n = gzread(in, buf, sizeof(buf))) > 0) bytes.append(buf, (size_t)n);
    const bool failed = n < 0;
    gzclose(in);
    if (failed) throw UserError("cannot read the cost model file " + path + " (corrupt compressed data)");
    return bytes;
}

// A header field of the expected type (strings, or non-negative integers),
// its type's empty value when absent; a field of another type is an error
// naming the file and the field.
template<typename T>
T header_field(const nlohmann::json &header, const char *name, const std::string &path) {
    if (!header.contains(name)) return T{};
    const nlohmann::json &v = header.at(name);
    const bool fits = std::is_same_v<T, std::string> ? v.is_string() : v.is_number_unsigned();
    if (!fits) {
        throw UserError("the cost model file " + path + " has a malformed header: \"" + name + "\" is " + v.dump() +
                        ", expected " + (std::is_same_v<T, std::string> ? "a string" : "a non-negative integer"));
    }
    return v.get<T>();
}

}  // namespace

void save_model_file(const std::string &path, const PackSumXGBoost &trees, ModelFileInfo info) {
    if (!trees.trained()) throw UserError("cannot save an untrained cost model to " + path);
    info.feature_set = feature_set_version();
    nlohmann::json header = {{"format", kFormat},           {"version", kVersion},
                             {"feature_set", info.feature_set}, {"objective", info.objective},
                             {"target", info.target},       {"pipelines", info.pipelines},
                             {"programs", info.programs},   {"sources", info.sources}};
    const std::string bytes = header.dump() + "\n" + trees.save();
    // Written beside the file and renamed over it: a save that fails or is
    // killed half-way leaves the model that was there whole.
    const std::string partial = path + ".partial-" + std::to_string(getpid());
    gzFile out = gzopen(partial.c_str(), "wb9");
    if (!out) throw UserError("cannot write the cost model file " + path + " (cannot create " + partial + ")");
    const bool written = gzwrite(out, bytes.data(), (unsigned)bytes.size()) == (int)bytes.size();
    if (gzclose(out) != Z_OK || !written || std::rename(partial.c_str(), path.c_str()) != 0) {
        std::remove(partial.c_str());
        throw UserError("cannot write the cost model file " + path);
    }
}

LoadedModel load_model_file(const std::string &path) {
    const std::string bytes = read_maybe_gzipped(path);
    const size_t newline = bytes.find('\n');
    const std::string first = bytes.substr(0, newline);
    nlohmann::json header;
    try {
        header = nlohmann::json::parse(first);
    } catch (const nlohmann::json::exception &) {
        throw UserError(path + " is not an Ansor cost model file (its first line is not a JSON header)");
    }
    if (!header.is_object() || header.value("format", "") != kFormat) {
        throw UserError(path + " is not an Ansor cost model file (no \"format\": \"" + kFormat + "\")");
    }
    if (header.value("version", 0) != kVersion) {
        throw UserError(path + " is a cost model file of format version " + header.value("version", nlohmann::json()).dump() +
                        "; this build reads version " + std::to_string(kVersion));
    }
    LoadedModel m;
    m.info.feature_set = header_field<std::string>(header, "feature_set", path);
    m.info.objective = header_field<std::string>(header, "objective", path);
    m.info.target = header_field<std::string>(header, "target", path);
    m.info.pipelines = header_field<size_t>(header, "pipelines", path);
    m.info.programs = header_field<size_t>(header, "programs", path);
    if (header.contains("sources") && header["sources"].is_array()) {
        for (const auto &s : header["sources"]) m.info.sources.push_back(s.is_string() ? s.get<std::string>() : s.dump());
    }
    if (m.info.feature_set != feature_set_version()) {
        throw UserError("the cost model " + path + " was trained on feature set " + m.info.feature_set +
                        ", but this build computes feature set " + feature_set_version() +
                        "; retrain it (ansor_train_model) or set HL_ANSOR_MODEL=none");
    }
    auto trees = std::make_shared<PackSumXGBoost>(features::kCount);
    try {
        if (newline == std::string::npos) throw std::runtime_error("no trees after the header");
        trees->load(bytes.substr(newline + 1));
    } catch (const std::exception &e) {
        throw UserError("the cost model file " + path + " has unreadable trees: " + e.what());
    }
    m.trees = std::move(trees);
    return m;
}

namespace {

// `name` in the directory of the library that holds this code, or "" if it is not there.
std::string beside_this_library(const char *name) {
    Dl_info info;
    if (!dladdr(reinterpret_cast<void *>(&beside_this_library), &info) || !info.dli_fname) return "";
    std::string library = info.dli_fname;
    size_t slash = library.rfind('/');
    std::string dir = slash == std::string::npos ? "." : library.substr(0, slash);
    std::string path = dir + "/" + name;
    return file_exists(path) ? path : "";
}

}  // namespace

std::string shipped_model_path() { return beside_this_library(kShippedModelFileName); }

std::string shipped_judge_model_path() { return beside_this_library(kShippedJudgeModelFileName); }

}  // namespace ansor
