#include "records/pretraining_set.h"

#include "features/program_features.h"
#include "util/errors.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sys/stat.h>

namespace ansor {

namespace {

const char *const kFormat = "ansor-pretraining";
const int kVersion = 1;

bool exists(const std::string &path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0;
}

}  // namespace

PretrainingPipeline::PretrainingPipeline() : programs(features::kCount) {}

size_t PretrainingSet::programs() const {
    size_t n = 0;
    for (const auto &p : pipelines) n += p.programs.programs();
    return n;
}

void write_pretraining_set(const std::string &path, const PretrainingSet &set) {
    if (exists(path)) throw UserError(path + " already exists; a pretraining set is never written over a file");
    std::ofstream out(path);
    if (!out) throw UserError("cannot write " + path);
    out << nlohmann::json{{"format", kFormat}, {"version", kVersion}, {"target", set.target},
                          {"features", feature_names()}}
               .dump()
        << "\n";
    for (const PretrainingPipeline &p : set.pipelines) {
        for (size_t i = 0; i < p.programs.programs(); i++) {
            nlohmann::json rows = nlohmann::json::array();
            for (size_t r = p.programs.begin[i]; r < p.programs.begin[i + 1]; r++) {
                const float *row = p.programs.rows.data() + r * p.programs.num_features;
                rows.push_back(std::vector<float>(row, row + p.programs.num_features));
            }
            nlohmann::json ms = std::isfinite(p.ms[i]) ? nlohmann::json(p.ms[i]) : nlohmann::json(nullptr);
            out << nlohmann::json{{"pipeline", p.key}, {"name", p.name}, {"ms", ms}, {"rows", rows}}.dump() << "\n";
        }
    }
    out.flush();
    if (!out) throw UserError("could not finish writing " + path);
}

PretrainingSet read_pretraining_set(const std::string &path) {
    std::ifstream in(path);
    if (!in) throw UserError("cannot read the pretraining set " + path);
    PretrainingSet set;
    std::map<std::string, size_t> index_of_key;
    std::string line;
    size_t line_no = 0;
    auto fail = [&](const std::string &why) -> UserError {
        return UserError(path + ":" + std::to_string(line_no) + ": " + why);
    };
    while (std::getline(in, line)) {
        line_no++;
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(line);
        } catch (const nlohmann::json::parse_error &e) {
            throw fail(std::string("not JSON (") + e.what() + ")");
        }
        try {
            if (line_no == 1) {
                if (!j.is_object() || j.value("format", "") != kFormat) {
                    throw fail("not a pretraining set (no \"format\": \"ansor-pretraining\" header); "
                               "make one with ansor_export_pretraining");
                }
                if (j.at("version").get<int>() != kVersion) {
                    throw fail("pretraining set version " + j.at("version").dump() + ", this build reads " +
                               std::to_string(kVersion));
                }
                if (j.at("features").get<std::vector<std::string>>() != feature_names()) {
                    throw fail("its feature columns differ from this build's (" +
                               std::to_string(j.at("features").size()) + " against " +
                               std::to_string(features::kCount) + "); export it again with this build");
                }
                set.target = j.at("target").get<std::string>();
                continue;
            }
            const std::string key = j.at("pipeline").get<std::string>();
            auto [it, added] = index_of_key.emplace(key, set.pipelines.size());
            if (added) {
                set.pipelines.emplace_back();
                set.pipelines.back().key = key;
                set.pipelines.back().name = j.value("name", key);
            }
            PretrainingPipeline &p = set.pipelines[it->second];
            const nlohmann::json &rows = j.at("rows");
            if (!rows.is_array() || rows.empty()) throw fail("\"rows\" must be a non-empty array of feature rows");
            std::vector<float> block;
            for (const auto &row : rows) {
                if (!row.is_array() || row.size() != (size_t)features::kCount) {
                    throw fail("every row must hold " + std::to_string(features::kCount) + " feature values");
                }
                for (const auto &v : row) block.push_back(v.get<float>());
            }
            p.programs.add(block.data(), rows.size());
            const nlohmann::json &ms = j.at("ms");
            p.ms.push_back(ms.is_null() ? std::numeric_limits<double>::infinity() : ms.get<double>());
        } catch (const nlohmann::json::exception &e) {
            throw fail(std::string("malformed (") + e.what() + ")");
        }
    }
    if (line_no == 0) throw UserError(path + " is empty; expected a pretraining set");
    return set;
}

}  // namespace ansor
