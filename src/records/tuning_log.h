#pragma once
// A tuning log: an append-only JSON-lines file of measurements, one record
// per line (tuning_record.h), filed under a pipeline key and the conditions
// it was measured under (record_conditions.h), so that one log can hold many
// pipelines, targets and machines. Guarantees (docs/tuning_log.md):
//   - append() never truncates or rewrites: under an exclusive flock it
//     writes one whole line in one write() and fsyncs it before returning,
//     so several processes can append to one log;
//   - bytes that are not a record (a writer killed mid-record, NUL padding)
//     are skipped with a warning naming their byte offset, wherever they
//     are; the next append starts on a fresh line;
//   - a JSON line that is not a valid record is a UserError naming file:line;
//   - records of other pipelines are ignored; records of this pipeline
//     measured under other conditions (target, thread count, host CPU,
//     format) or with no conditions recorded are reported and not applied;
//   - a record whose steps no longer fit the pipeline is skipped with a warning.
#include "records/tuning_record.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ansor {

// Which records of a pipeline load() returns.
enum class RecordScope {
    // Measured under exactly these conditions: what may be applied, resumed
    // from and trained on in a tuning run.
    applicable,
    // Measured on this target under any thread count, host, format, with or
    // without recorded conditions: for datasets that only want programs and
    // their relative times. Key collisions are still left out.
    any_conditions,
};

class TuningLog {
public:
    using WarningSink = std::function<void(const std::string &)>;
    // Prints "ansor: warning: <message>" on stderr.
    static void warn_on_stderr(const std::string &message);

    explicit TuningLog(std::string path, WarningSink warn = warn_on_stderr);
    const std::string &path() const { return path_; }

    // Appends one record. Creates the file if needed. Throws UserError if the
    // file cannot be written, InvalidState if the state's steps name Funcs or
    // loops its pipeline lacks.
    void append(const PipelineKey &key, const Halide::Target &target, const State &state,
                const MeasureResult &result, const RecordMeta &meta = {}) const;
    void append(const TuningRecord &record) const;

    // The records of this pipeline measured under `conditions` (scope
    // applicable), in file order, each with its state rebuilt for `dag`.
    // A missing file gives none. Records left out are reported (one warning
    // per kind, with counts).
    std::vector<TuningRecord> load(const PipelineDAG &dag, const PipelineKey &key, const MeasureConditions &conditions,
                                   RecordScope scope = RecordScope::applicable) const;
    // The same under this build's conditions on `target` with the DAG's
    // parallelism as the thread count.
    std::vector<TuningRecord> load(const PipelineDAG &dag, const Halide::Target &target) const;
    std::vector<TuningRecord> load(const PipelineDAG &dag, const PipelineKey &key, const Halide::Target &target,
                                   RecordScope scope = RecordScope::applicable) const;

    // The fastest successful applicable record for this pipeline and target.
    std::optional<TuningRecord> best(const PipelineDAG &dag, const Halide::Target &target) const;

    // Every well-formed record of every pipeline, without states (for the
    // summary tool).
    std::vector<TuningRecord> read_all() const;

private:
    // Parses every line; calls `keep` on each record, which decides. Bytes
    // that are not a record, and records of a newer format, are skipped with
    // a warning.
    void scan(const std::function<void(TuningRecord &&)> &keep) const;
    std::string path_;
    WarningSink warn_;
};

// The successful record with the lowest min_ms; ties go to the earliest line,
// so the same log always gives the same answer.
std::optional<TuningRecord> best_record(const std::vector<TuningRecord> &records);

// Up to k successful records, fastest first (ties to the earlier line), one
// per distinct program: the states to seed a resumed search with.
std::vector<TuningRecord> fastest_records(const std::vector<TuningRecord> &records, size_t k);

}  // namespace ansor
