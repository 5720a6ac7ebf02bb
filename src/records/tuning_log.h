#pragma once
// A tuning log: an append-only JSON-lines file of measurements, one record
// per line (tuning_record.h), filed under a pipeline key and a target so that
// one log can hold many pipelines. Guarantees (docs/tuning_log.md):
//   - append() never truncates or rewrites: it opens with O_APPEND, writes
//     one whole line in one write() and fsyncs it before returning;
//   - a record cut short (a process killed mid-write) is skipped with a
//     warning, and the next append starts on a fresh line;
//   - any other malformed line is a UserError naming file:line and why;
//   - records of other pipelines or targets are ignored;
//   - a record whose steps no longer fit the pipeline is skipped with a warning.
#include "records/tuning_record.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ansor {

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

    // The records for this pipeline and target, in file order, each with its
    // state rebuilt for `dag`. A missing file gives none.
    std::vector<TuningRecord> load(const PipelineDAG &dag, const Halide::Target &target) const;
    std::vector<TuningRecord> load(const PipelineDAG &dag, const PipelineKey &key, const Halide::Target &target) const;

    // The fastest successful record for this pipeline and target.
    std::optional<TuningRecord> best(const PipelineDAG &dag, const Halide::Target &target) const;

    // Every well-formed record of every pipeline, without states (for the
    // summary tool).
    std::vector<TuningRecord> read_all() const;

private:
    // Parses every line; calls `keep` on each record, which decides.
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
