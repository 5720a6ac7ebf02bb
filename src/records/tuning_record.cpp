#include "records/tuning_record.h"

#include "records/canonical_steps.h"

#include <cmath>
#include <ctime>
#include <limits>
#include <stdexcept>

namespace ansor {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

std::string utc_now() {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

// JSON has no NaN or infinity: those are written as null.
ordered_json time_ms(double ms) { return std::isfinite(ms) ? ordered_json(ms) : ordered_json(nullptr); }

const json &field(const json &j, const char *name) {
    auto it = j.find(name);
    if (it == j.end()) throw std::invalid_argument(std::string("missing field '") + name + "'");
    return *it;
}

[[noreturn]] void wrong_type(const char *name, const char *expected, const json &v) {
    throw std::invalid_argument(std::string("field '") + name + "' must be " + expected + ", got " + v.dump());
}

std::string string_field(const json &j, const char *name) {
    const json &v = field(j, name);
    if (!v.is_string()) wrong_type(name, "a string", v);
    return v.get<std::string>();
}

int64_t integer_field(const json &j, const char *name) {
    const json &v = field(j, name);
    if (!v.is_number_integer()) wrong_type(name, "an integer", v);
    return v.get<int64_t>();
}

double number_field(const json &j, const char *name, bool null_is_infinity) {
    const json &v = field(j, name);
    if (v.is_null() && null_is_infinity) return std::numeric_limits<double>::infinity();
    if (!v.is_number()) wrong_type(name, "a number", v);
    return v.get<double>();
}

}  // namespace

TuningRecord make_record(const PipelineKey &key, const Halide::Target &target, const State &state,
                         const MeasureResult &result, const RecordMeta &meta) {
    TuningRecord r;
    r.pipeline = key.hash;
    r.check = key.check;
    r.target = target.to_string();
    r.conditions = conditions_of_this_build(target, meta.threads.value_or(key.parallelism));
    if (!result.host.empty()) r.conditions->host = result.host;  // measured by another machine
    r.outputs = key.outputs;
    r.ok = result.ok;
    r.error = result.error.size() > kMaxErrorChars ? result.error.substr(0, kMaxErrorChars) + "..." : result.error;
    r.min_ms = result.min_ms;
    r.median_ms = result.median_ms;
    r.seconds = result.seconds;
    r.trial = meta.trial;
    r.seed = meta.seed;
    r.time = utc_now();
    r.steps = canonical_steps(state, key.names);
    return r;
}

TuningRecord adopt_record(const TuningRecord &old, const MeasureConditions &conditions, const std::string &origin) {
    if (old.conditions) throw std::invalid_argument("only a version 1 record can be adopted; " + origin + " names its conditions");
    if (conditions.target != old.target) {
        throw std::invalid_argument("adopting " + origin + " measured on " + old.target + " under target " + conditions.target);
    }
    TuningRecord r = old;
    r.version = kTuningRecordVersion;
    r.check.clear();
    r.conditions = conditions;
    r.adopted_from = origin;
    r.state.reset();
    return r;
}

std::string record_line(const TuningRecord &r) {
    // Fields in a fixed, readable order; the steps, the longest, last.
    ordered_json j;
    j["version"] = r.version;
    j["pipeline"] = r.pipeline;
    if (r.conditions) j["check"] = r.check;  // "" in an adopted record: not known
    j["target"] = r.target;
    if (r.conditions) {
        j["threads"] = r.conditions->threads;
        j["host"] = r.conditions->host;
        j["steps_format"] = r.conditions->steps_format;
        j["feature_set"] = r.conditions->feature_set;
        j["key_format"] = r.conditions->key_format;
    }
    if (!r.adopted_from.empty()) j["adopted_from"] = r.adopted_from;
    j["outputs"] = r.outputs;
    j["ok"] = r.ok;
    j["error"] = r.error;
    j["min_ms"] = time_ms(r.min_ms);
    j["median_ms"] = time_ms(r.median_ms);
    j["seconds"] = std::isfinite(r.seconds) ? r.seconds : 0.0;
    if (r.trial) j["trial"] = *r.trial;
    if (r.seed) j["seed"] = *r.seed;
    j["time"] = r.time;
    j["steps"] = ordered_json::parse(r.steps.dump(-1, ' ', false, json::error_handler_t::replace));
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

TuningRecord record_from_json(const json &j) {
    if (!j.is_object()) throw std::invalid_argument("a record must be a JSON object");
    TuningRecord r;
    const json &version = field(j, "version");
    if (!version.is_number_integer()) wrong_type("version", "an integer", version);
    r.version = version.get<int>();
    if (r.version < 1) throw std::invalid_argument("record version " + std::to_string(r.version) + " does not exist");
    if (r.version > kTuningRecordVersion) throw NewerRecordVersion(r.version);
    r.pipeline = string_field(j, "pipeline");
    r.target = string_field(j, "target");
    if (r.version >= 2) {
        r.check = string_field(j, "check");
        MeasureConditions c;
        c.target = r.target;
        c.threads = (int)integer_field(j, "threads");
        c.host = string_field(j, "host");
        c.steps_format = (int)integer_field(j, "steps_format");
        c.feature_set = string_field(j, "feature_set");
        c.key_format = string_field(j, "key_format");
        r.conditions = std::move(c);
        if (j.contains("adopted_from")) r.adopted_from = string_field(j, "adopted_from");
    }
    if (j.contains("outputs")) {
        const json &o = j.at("outputs");
        if (!o.is_array()) wrong_type("outputs", "an array of strings", o);
        for (const json &name : o) {
            if (!name.is_string()) wrong_type("outputs", "an array of strings", o);
            r.outputs.push_back(name.get<std::string>());
        }
    }
    const json &ok = field(j, "ok");
    if (!ok.is_boolean()) wrong_type("ok", "true or false", ok);
    r.ok = ok.get<bool>();
    r.error = string_field(j, "error");
    r.min_ms = number_field(j, "min_ms", true);
    r.median_ms = number_field(j, "median_ms", true);
    r.seconds = number_field(j, "seconds", false);
    if (j.contains("trial")) {
        const json &t = j.at("trial");
        if (!t.is_number_integer()) wrong_type("trial", "an integer", t);
        r.trial = t.get<int64_t>();
    }
    if (j.contains("seed")) {
        const json &s = j.at("seed");
        if (!s.is_number_unsigned()) wrong_type("seed", "a non-negative integer", s);
        r.seed = s.get<uint64_t>();
    }
    if (j.contains("time")) r.time = string_field(j, "time");
    r.steps = field(j, "steps");
    if (!r.steps.is_array()) wrong_type("steps", "an array", r.steps);
    return r;
}

}  // namespace ansor
