#include "model/model_file.h"

#include "features/program_features.h"
#include "model/model_blend.h"
#include "util/errors.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <stdexcept>

#include <dlfcn.h>
#include <sys/stat.h>
#include <zlib.h>

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

// The blend members the header lists, each sliced out of m.trees.
void read_members(const nlohmann::json &header, const std::string &path, LoadedModel &m) {
    if (!header.contains("members")) return;
    const nlohmann::json &members = header["members"];
    const std::string culprit = "the cost model file " + path + " lists its blend members wrongly: ";
    if (!members.is_array()) throw UserError(culprit + "\"members\" is not an array");
    int begin = 0;
    for (const nlohmann::json &j : members) {
        ModelMember member;
        try {
            member.name = j.at("name").get<std::string>();
            member.trees = j.at("trees").get<int>();
            member.weight = j.at("weight").get<double>();
        } catch (const nlohmann::json::exception &) {
            throw UserError(culprit + "a member without a name, a tree count or a weight: " + j.dump());
        }
        if (member.trees <= 0 || begin + member.trees > m.trees->rounds()) {
            throw UserError(culprit + "member " + member.name + " has trees [" + std::to_string(begin) + ", " +
                            std::to_string(begin + member.trees) + ") of " + std::to_string(m.trees->rounds()));
        }
        if (!std::isfinite(member.weight) || member.weight <= 0) {
            throw UserError(culprit + "member " + member.name + " has weight " + j.at("weight").dump());
        }
        m.members.push_back(std::make_shared<PackSumXGBoost>(
            blend_member(*m.trees, begin, begin + member.trees, member.weight)));
        begin += member.trees;
        m.info.members.push_back(member);
    }
    if (begin != m.trees->rounds()) {
        throw UserError(culprit + "they hold " + std::to_string(begin) + " trees, the file " +
                        std::to_string(m.trees->rounds()));
    }
}

}  // namespace

void save_model_file(const std::string &path, const PackSumXGBoost &trees, ModelFileInfo info) {
    if (!trees.trained()) throw UserError("cannot save an untrained cost model to " + path);
    info.feature_set = feature_set_version();
    int member_trees = 0;
    nlohmann::json members = nlohmann::json::array();
    for (const ModelMember &m : info.members) {
        if (m.trees <= 0) throw std::invalid_argument("save_model_file: member " + m.name + " has no trees");
        member_trees += m.trees;
        members.push_back({{"name", m.name}, {"trees", m.trees}, {"weight", m.weight}});
    }
    if (!info.members.empty() && member_trees != trees.rounds()) {
        throw std::invalid_argument("save_model_file: the members have " + std::to_string(member_trees) +
                                    " trees, the model " + std::to_string(trees.rounds()));
    }
    nlohmann::json header = {{"format", kFormat},           {"version", kVersion},
                             {"feature_set", info.feature_set}, {"objective", info.objective},
                             {"target", info.target},       {"pipelines", info.pipelines},
                             {"programs", info.programs},   {"sources", info.sources}};
    if (!info.members.empty()) header["members"] = members;
    const std::string bytes = header.dump() + "\n" + trees.save();
    gzFile out = gzopen(path.c_str(), "wb9");
    if (!out) throw UserError("cannot write the cost model file " + path);
    const bool written = gzwrite(out, bytes.data(), (unsigned)bytes.size()) == (int)bytes.size();
    if (gzclose(out) != Z_OK || !written) throw UserError("cannot write the cost model file " + path);
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
    m.info.feature_set = header.value("feature_set", "");
    m.info.objective = header.value("objective", "");
    m.info.target = header.value("target", "");
    m.info.pipelines = header.value("pipelines", (size_t)0);
    m.info.programs = header.value("programs", (size_t)0);
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
    read_members(header, path, m);
    return m;
}

std::string shipped_model_path() {
    Dl_info info;
    if (!dladdr(reinterpret_cast<void *>(&shipped_model_path), &info) || !info.dli_fname) return "";
    std::string library = info.dli_fname;
    size_t slash = library.rfind('/');
    std::string dir = slash == std::string::npos ? "." : library.substr(0, slash);
    std::string path = dir + "/" + kShippedModelFileName;
    return file_exists(path) ? path : "";
}

}  // namespace ansor
