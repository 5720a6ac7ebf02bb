#pragma once
// One measurement as a tuning log stores it: one JSON object on one line
// (docs/tuning_log.md lists the fields). This file converts between the
// struct and JSON and validates what it reads; the file handling is in
// tuning_log.h.
#include "measure/measure_result.h"
#include "state/state.h"
#include "records/pipeline_key.h"
#include "records/record_conditions.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ansor {

// 2: records name the conditions they were measured under and carry the
// key's check hash. 1: neither (still read: see TuningRecord::conditions).
constexpr int kTuningRecordVersion = 2;

// What the caller knows about a measurement besides its state and result.
struct RecordMeta {
    std::optional<int64_t> trial;  // the search's trial number
    std::optional<uint64_t> seed;  // the search's random seed
    std::optional<int> threads;    // the thread count it ran with; default PipelineKey::parallelism
};

struct TuningRecord {
    int version = kTuningRecordVersion;
    std::string pipeline;              // PipelineKey::hash
    std::string check;                 // PipelineKey::check; empty in a version 1 record
    std::string target;                // Halide::Target::to_string()
    // Where it was measured; none in a version 1 record, which did not say
    // (such a record is never applied: docs/tuning_log.md).
    std::optional<MeasureConditions> conditions;
    // "log:line" of the version 1 record this one was adopted from
    // (ansor_log_adopt); empty for a measurement.
    std::string adopted_from;
    std::vector<std::string> outputs;  // output Func names, for people only
    bool ok = false;
    std::string error;
    double min_ms = 0;     // +infinity where the log holds null (a time that was not finite)
    double median_ms = 0;
    double seconds = 0;    // wall time spent measuring it
    std::optional<int64_t> trial;
    std::optional<uint64_t> seed;
    std::string time;      // UTC, ISO 8601, when it was appended
    nlohmann::json steps;  // canonical steps (canonical_steps.h)

    int line = 0;                // 1-based line in the log it was read from
    std::optional<State> state;  // set by TuningLog::load: the steps rebuilt for its DAG
};

// Longest error message kept; compiler output can run to megabytes.
constexpr size_t kMaxErrorChars = 2000;

TuningRecord make_record(const PipelineKey &key, const Halide::Target &target, const State &state,
                         const MeasureResult &result, const RecordMeta &meta);

// The line written to the log, without its newline. Never throws on odd
// bytes in an error message (invalid UTF-8 is replaced).
std::string record_line(const TuningRecord &r);

// A version 1 record (no conditions recorded) as a current one measured
// under `conditions` (whose target must be the record's), with its origin
// "log:line" in adopted_from and an empty check (version 1 did not keep
// one). Whoever adopts asserts the conditions: ansor_log_adopt.
TuningRecord adopt_record(const TuningRecord &old, const MeasureConditions &conditions, const std::string &origin);

// A record written by a later build, in a format this one does not read.
// A log shared with a newer build stays readable: such records are skipped.
class NewerRecordVersion : public std::invalid_argument {
public:
    explicit NewerRecordVersion(int version)
        : std::invalid_argument("record version " + std::to_string(version) + " is newer than this build reads (1.." +
                                std::to_string(kTuningRecordVersion) + ")"),
          version(version) {}
    int version;
};

// Reads a parsed line back. Throws NewerRecordVersion for a later format,
// std::invalid_argument saying which field is missing or of the wrong type.
TuningRecord record_from_json(const nlohmann::json &j);

}  // namespace ansor
