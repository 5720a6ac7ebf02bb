#pragma once
// What rank 0 and the worker ranks of a distributed tuning run
// (docs/distributed_tuning.md) say to each other, as JSON text: the hello a
// worker opens with, rank 0's answer, a chunk of candidates to measure and
// its results. Independent of MPI so that it is tested without it.
#include "network/generator_pipeline.h"

#include "measure/measurer.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ansor_tasks {

// Message tags. Every message body is one JSON object serialised as text.
enum class WireTag : int {
    Hello = 11,      // worker -> 0: WorkerHello
    Welcome = 12,    // 0 -> worker: WorkerWelcome
    Work = 13,       // 0 -> worker: WorkChunk
    Result = 14,     // worker -> 0: ChunkResult
    Heartbeat = 15,  // worker -> 0: empty object, every few seconds
    Stop = 16,       // 0 -> worker: empty object; the worker finishes
};

// What makes two builds' measurements interchangeable: the project's
// commit, the feature set, the steps format and the pipeline key format.
// Workers of another version are refused.
std::string build_version();

struct WorkerHello {
    std::string version;   // build_version() of the worker
    std::string target;    // the --target the worker was started with
    std::string host_cpu;  // host_cpu_id(): the host class its times belong to
    std::string hostname;
    int cores = 1;         // CPUs the worker may use (its affinity mask)
    int pid = 0;
};

struct WorkerWelcome {
    bool accepted = false;
    // Not accepted because the worker is wrong (another build or target):
    // an error. Not accepted and not refused: not needed (another host
    // class), which is no error.
    bool refused = false;
    std::string reason;           // why not, when not accepted
    ansor::MeasureOptions measure;  // rank 0's measurement settings (builders: the worker's own)
};

struct WorkChunk {
    int64_t id = 0;
    int task = 0;  // index in rank 0's task list: the worker caches each task's pipeline and reference
    std::string task_name;
    std::string generator;
    ansor::GeneratorParamValues params;
    int parallelism = 1;  // the DAG's parallelism (the tool's --parallelism)
    std::string key;  // the pipeline key rank 0 computed: the worker checks its own against it
    std::vector<nlohmann::json> states;  // canonical steps (records/canonical_steps.h), one per candidate
};

struct ChunkResult {
    int64_t id = 0;
    // One per state of the chunk, in its order. Empty when `error` is set.
    std::vector<ansor::MeasureResult> results;
    // The task cannot be measured on the worker at all (its pipeline does
    // not build there, its key differs, its reference fails): every
    // candidate of the chunk fails with this error.
    std::string error;
    bool measurement_unavailable = false;  // the error is a MeasurementUnavailable
    double worker_s = 0;  // the worker's time on the chunk, from its arrival to the answer
};

nlohmann::json to_json(const WorkerHello &h);
nlohmann::json to_json(const WorkerWelcome &w);
nlohmann::json to_json(const WorkChunk &c);
nlohmann::json to_json(const ChunkResult &r);
nlohmann::json to_json(const ansor::MeasureResult &r);
nlohmann::json to_json(const ansor::MeasureOptions &o);

// The inverses throw std::invalid_argument naming the message kind and the
// field that is missing or of the wrong type.
WorkerHello hello_from_json(const nlohmann::json &j);
WorkerWelcome welcome_from_json(const nlohmann::json &j);
WorkChunk chunk_from_json(const nlohmann::json &j);
ChunkResult result_from_json(const nlohmann::json &j);
ansor::MeasureResult measure_result_from_json(const nlohmann::json &j);
ansor::MeasureOptions measure_options_from_json(const nlohmann::json &j);

// Parses a message body; std::invalid_argument naming the tag for text that is not JSON.
nlohmann::json parse_message(const std::string &text, WireTag tag);
const char *tag_name(WireTag tag);

}  // namespace ansor_tasks
