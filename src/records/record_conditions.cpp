#include "records/record_conditions.h"

#include "features/program_features.h"
#include "records/canonical_steps.h"
#include "records/pipeline_key.h"

#include <sys/utsname.h>

#include <fstream>
#include <sstream>

namespace ansor {

namespace {

// "model name\t: AMD EPYC  7B13" -> "AMD EPYC 7B13"
std::string cpuinfo_value(const std::string &line) {
    size_t colon = line.find(':');
    std::istringstream words(colon == std::string::npos ? "" : line.substr(colon + 1));
    std::string word, out;
    while (words >> word) out += (out.empty() ? "" : " ") + word;
    return out;
}

std::string read_host_cpu_id() {
    std::ifstream in("/proc/cpuinfo");
    std::string line, implementer, part;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0) {
            std::string v = cpuinfo_value(line);
            if (!v.empty()) return v;
        }
        if (implementer.empty() && line.rfind("CPU implementer", 0) == 0) implementer = cpuinfo_value(line);
        if (part.empty() && line.rfind("CPU part", 0) == 0) part = cpuinfo_value(line);
    }
    if (!implementer.empty() || !part.empty()) return "implementer " + implementer + " part " + part;
    struct utsname u {};
    if (::uname(&u) == 0) return u.machine;
    return "unknown";
}

}  // namespace

bool MeasureConditions::operator==(const MeasureConditions &o) const {
    return target == o.target && threads == o.threads && host == o.host && steps_format == o.steps_format &&
           feature_set == o.feature_set && key_format == o.key_format;
}

MeasureConditions conditions_of_this_build(const Halide::Target &target, int threads) {
    MeasureConditions c;
    c.target = target.to_string();
    c.threads = threads;
    c.host = host_cpu_id();
    c.steps_format = kStepsFormatVersion;
    c.feature_set = feature_set_version();
    c.key_format = pipeline_key_format();
    return c;
}

const std::string &host_cpu_id() {
    static const std::string id = read_host_cpu_id();
    return id;
}

std::vector<std::string> differing_conditions(const MeasureConditions &record, const MeasureConditions &ours) {
    std::vector<std::string> out;
    if (record.target != ours.target) out.push_back("target");
    if (record.threads != ours.threads) out.push_back("thread count");
    if (record.host != ours.host) out.push_back("host CPU");
    if (record.steps_format != ours.steps_format) out.push_back("steps format");
    // Not the feature set: a record's program and time do not depend on it,
    // and history that trains the model is featurised again from the steps.
    if (record.key_format != ours.key_format) out.push_back("pipeline key format");
    return out;
}

std::string condition_value(const MeasureConditions &c, const std::string &name) {
    if (name == "target") return c.target;
    if (name == "thread count") return std::to_string(c.threads);
    if (name == "host CPU") return "\"" + c.host + "\"";
    if (name == "steps format") return std::to_string(c.steps_format);
    if (name == "pipeline key format") return c.key_format;
    return "?";
}

}  // namespace ansor
