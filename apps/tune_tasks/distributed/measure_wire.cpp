#include "measure_wire.h"

#include "features/program_features.h"
#include "records/canonical_steps.h"
#include "records/pipeline_key.h"

#include <cmath>
#include <stdexcept>

#ifndef ANSOR_SOURCE_REVISION
#define ANSOR_SOURCE_REVISION "unknown"
#endif

namespace ansor_tasks {

using nlohmann::json;

std::string build_version() {
    return std::string(ANSOR_SOURCE_REVISION) + "; features " + ansor::feature_set_version() + "; steps " +
           std::to_string(ansor::kStepsFormatVersion) + "; keys " + ansor::pipeline_key_format();
}

const char *tag_name(WireTag tag) {
    switch (tag) {
    case WireTag::Hello: return "hello";
    case WireTag::Welcome: return "welcome";
    case WireTag::Work: return "work";
    case WireTag::Result: return "result";
    case WireTag::Heartbeat: return "heartbeat";
    case WireTag::Stop: return "stop";
    }
    return "unknown";
}

json parse_message(const std::string &text, WireTag tag) {
    json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) {
        throw std::invalid_argument(std::string("a ") + tag_name(tag) + " message that is not a JSON object (" +
                                    std::to_string(text.size()) + " bytes)");
    }
    return j;
}

namespace {

// A field of a message, of the type asked for; std::invalid_argument naming both otherwise.
template <typename T>
T field(const json &j, const char *name, const char *kind) {
    auto it = j.find(name);
    if (it == j.end()) throw std::invalid_argument(std::string(kind) + " message without \"" + name + "\"");
    try {
        return it->get<T>();
    } catch (const json::exception &) {
        throw std::invalid_argument(std::string(kind) + " message: \"" + name + "\" has the wrong type (" +
                                    it->type_name() + ")");
    }
}

// Times that are not finite travel as null (JSON has no infinity).
json time_value(double ms) { return std::isfinite(ms) ? json(ms) : json(nullptr); }
double time_from(const json &j, const char *name, const char *kind) {
    auto it = j.find(name);
    if (it == j.end()) throw std::invalid_argument(std::string(kind) + " message without \"" + name + "\"");
    if (it->is_null()) return INFINITY;
    return field<double>(j, name, kind);
}

}  // namespace

json to_json(const WorkerHello &h) {
    return {{"version", h.version}, {"target", h.target}, {"host_cpu", h.host_cpu},
            {"hostname", h.hostname}, {"cores", h.cores}, {"pid", h.pid}};
}

WorkerHello hello_from_json(const json &j) {
    const char *k = "hello";
    WorkerHello h;
    h.version = field<std::string>(j, "version", k);
    h.target = field<std::string>(j, "target", k);
    h.host_cpu = field<std::string>(j, "host_cpu", k);
    h.hostname = field<std::string>(j, "hostname", k);
    h.cores = field<int>(j, "cores", k);
    h.pid = field<int>(j, "pid", k);
    return h;
}

json to_json(const ansor::MeasureOptions &o) {
    return {{"target", o.target.to_string()}, {"threads", o.threads},
            {"timeout_s", o.timeout_s}, {"repeats", o.repeats},
            {"measure_seconds", o.measure_seconds}, {"max_repeats", o.max_repeats},
            {"tolerance", o.tolerance}, {"builders", o.builders},
            {"memory_limit_bytes", o.memory_limit_bytes}};
}

ansor::MeasureOptions measure_options_from_json(const json &j) {
    const char *k = "measure options";
    ansor::MeasureOptions o;
    const std::string target = field<std::string>(j, "target", k);
    if (!Halide::Target::validate_target_string(target)) {
        throw std::invalid_argument(std::string(k) + " message: \"" + target + "\" is not a Halide target");
    }
    o.target = Halide::Target(target);
    o.threads = field<int>(j, "threads", k);
    o.timeout_s = field<double>(j, "timeout_s", k);
    o.repeats = field<int>(j, "repeats", k);
    o.measure_seconds = field<double>(j, "measure_seconds", k);
    o.max_repeats = field<int>(j, "max_repeats", k);
    o.tolerance = field<double>(j, "tolerance", k);
    o.builders = field<int>(j, "builders", k);
    o.memory_limit_bytes = field<uint64_t>(j, "memory_limit_bytes", k);
    return o;
}

json to_json(const WorkerWelcome &w) {
    return {{"accepted", w.accepted}, {"refused", w.refused}, {"reason", w.reason}, {"measure", to_json(w.measure)}};
}

WorkerWelcome welcome_from_json(const json &j) {
    const char *k = "welcome";
    WorkerWelcome w;
    w.accepted = field<bool>(j, "accepted", k);
    w.refused = field<bool>(j, "refused", k);
    w.reason = field<std::string>(j, "reason", k);
    w.measure = measure_options_from_json(field<json>(j, "measure", k));
    return w;
}

json to_json(const WorkChunk &c) {
    return {{"id", c.id}, {"task", c.task}, {"task_name", c.task_name}, {"generator", c.generator},
            {"params", c.params}, {"parallelism", c.parallelism}, {"key", c.key}, {"states", c.states}};
}

WorkChunk chunk_from_json(const json &j) {
    const char *k = "work";
    WorkChunk c;
    c.id = field<int64_t>(j, "id", k);
    c.task = field<int>(j, "task", k);
    c.task_name = field<std::string>(j, "task_name", k);
    c.generator = field<std::string>(j, "generator", k);
    c.params = field<ansor::GeneratorParamValues>(j, "params", k);
    c.parallelism = field<int>(j, "parallelism", k);
    c.key = field<std::string>(j, "key", k);
    c.states = field<std::vector<json>>(j, "states", k);
    return c;
}

json to_json(const ansor::MeasureResult &r) {
    return {{"ok", r.ok}, {"error", r.error}, {"min_ms", time_value(r.min_ms)},
            {"median_ms", time_value(r.median_ms)}, {"seconds", r.seconds}, {"runs", r.runs},
            {"compile_s", r.compile.seconds()}, {"run_s", r.run.seconds()},
            {"not_run", r.not_run}, {"device", r.device}, {"host", r.host}};
}

ansor::MeasureResult measure_result_from_json(const json &j) {
    const char *k = "result";
    ansor::MeasureResult r;
    r.ok = field<bool>(j, "ok", k);
    r.error = field<std::string>(j, "error", k);
    r.min_ms = time_from(j, "min_ms", k);
    r.median_ms = time_from(j, "median_ms", k);
    r.seconds = field<double>(j, "seconds", k);
    r.runs = field<int>(j, "runs", k);
    // Durations only: the worker's clock is not rank 0's.
    r.compile = {0, field<double>(j, "compile_s", k)};
    r.run = {0, field<double>(j, "run_s", k)};
    r.not_run = field<bool>(j, "not_run", k);
    r.device = field<std::string>(j, "device", k);
    r.host = field<std::string>(j, "host", k);
    // A worker's impossible time is that candidate's failure, never its best.
    if (const std::string why = ansor::implausible_result(r); !why.empty()) {
        r.ok = false;
        r.error = "implausible result from worker" + (r.host.empty() ? std::string() : " " + r.host) + ": " + why;
    }
    return r;
}

json to_json(const ChunkResult &r) {
    json results = json::array();
    for (const auto &m : r.results) results.push_back(to_json(m));
    return {{"id", r.id}, {"results", results}, {"error", r.error},
            {"measurement_unavailable", r.measurement_unavailable}, {"worker_s", r.worker_s}};
}

ChunkResult result_from_json(const json &j) {
    const char *k = "result";
    ChunkResult r;
    r.id = field<int64_t>(j, "id", k);
    for (const auto &m : field<std::vector<json>>(j, "results", k)) r.results.push_back(measure_result_from_json(m));
    r.error = field<std::string>(j, "error", k);
    r.measurement_unavailable = field<bool>(j, "measurement_unavailable", k);
    r.worker_s = field<double>(j, "worker_s", k);
    return r;
}

}  // namespace ansor_tasks
