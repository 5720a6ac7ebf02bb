#include "records/tuning_log.h"

#include "records/excluded_records.h"
#include "records/log_file.h"
#include "records/record_limits.h"
#include "util/errors.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <set>
#include <stdexcept>

namespace ansor {

namespace {

std::string where(const std::string &path, int line) { return path + ":" + std::to_string(line); }

// nlohmann's message without its "[json.exception.parse_error.101] parse
// error at line 1, " prefix: the caller names the line.
std::string parse_reason(const nlohmann::json::parse_error &e) {
    std::string m = e.what();
    size_t at = m.find("column");
    return at == std::string::npos ? m : m.substr(at);
}

// What a run of bytes that is not a record probably is, for the warning.
std::string what_garbage_is(const std::string &bytes, const nlohmann::json::parse_error &e, bool terminated) {
    if (bytes.find_first_not_of('\0') == std::string::npos) return "NUL padding, as a killed writer can leave";
    if (!terminated || e.byte >= bytes.size()) return "a record cut short, as a killed writer leaves";
    return "not JSON: " + parse_reason(e);
}

// The JSON of a line, or none if it holds no record. A record glued onto
// a garbage prefix (an append after a killed writer by a build that did not
// start a fresh line) is recovered: the prefix is skipped and reported.
std::optional<nlohmann::json> parse_line(const LogLine &l, const std::string &path,
                                         const std::function<void(const std::string &)> &warn) {
    try {
        return nlohmann::json::parse(l.text);
    } catch (const nlohmann::json::parse_error &e) {
        size_t glued = l.text.rfind("{\"version\":");
        if (glued != std::string::npos && glued > 0) {
            try {
                nlohmann::json j = nlohmann::json::parse(l.text.substr(glued));
                warn(where(path, l.number) + ": skipped " + std::to_string(glued) + " byte(s) at byte offset " +
                     std::to_string(l.offset) + " before a record (" +
                     what_garbage_is(l.text.substr(0, glued), e, true) + ")");
                return j;
            } catch (const nlohmann::json::parse_error &) {
            }
        }
        warn(where(path, l.number) + ": skipped " + std::to_string(l.text.size()) + " byte(s) at byte offset " +
             std::to_string(l.offset) + " that are not a tuning record (" + what_garbage_is(l.text, e, l.terminated) +
             ")");
        return std::nullopt;
    }
}

}  // namespace

void TuningLog::warn_on_stderr(const std::string &message) { std::cerr << "ansor: warning: " << message << std::endl; }

TuningLog::TuningLog(std::string path, WarningSink warn) : path_(std::move(path)), warn_(std::move(warn)) {
    if (!warn_) warn_ = warn_on_stderr;
}

void TuningLog::append(const PipelineKey &key, const Halide::Target &target, const State &state,
                       const MeasureResult &result, const RecordMeta &meta) const {
    append(make_record(key, target, state, result, meta));
}

void TuningLog::append(const TuningRecord &record) const { append_log_line(path_, record_line(record)); }

void TuningLog::scan(const std::function<void(TuningRecord &&)> &keep) const {
    std::optional<std::string> text = read_log_file(path_);
    if (!text) return;
    int newer = 0, newest = 0, first_newer = 0;
    for (const LogLine &l : split_log_lines(*text)) {
        if (l.text.find_first_not_of(" \t") == std::string::npos) continue;
        std::optional<nlohmann::json> j = parse_line(l, path_, warn_);
        if (!j) continue;
        TuningRecord r;
        try {
            r = record_from_json(*j);
        } catch (const NewerRecordVersion &e) {
            if (newer++ == 0) first_newer = l.number;
            newest = std::max(newest, e.version);
            continue;
        } catch (const std::exception &e) {
            throw UserError(where(path_, l.number) + ": malformed tuning record: " + e.what());
        }
        r.line = l.number;
        // A forged or corrupted time would win every comparison: such a
        // record is never applied, trained on or counted.
        MeasureResult as_measured;
        as_measured.ok = r.ok;
        as_measured.min_ms = r.min_ms;
        as_measured.median_ms = r.median_ms;
        as_measured.seconds = r.seconds;
        if (const std::string why = implausible_result(as_measured); !why.empty()) {
            warn_(where(path_, l.number) + ": skipped a record whose " + why);
            continue;
        }
        keep(std::move(r));
    }
    if (newer) {
        warn_(path_ + ": skipped " + std::to_string(newer) + " record(s) of a newer format (version up to " +
              std::to_string(newest) + "; this build reads 1.." + std::to_string(kTuningRecordVersion) +
              "), the first at line " + std::to_string(first_newer));
    }
}

std::vector<TuningRecord> TuningLog::load(const PipelineDAG &dag, const Halide::Target &target) const {
    return load(dag, make_pipeline_key(dag), target);
}

std::vector<TuningRecord> TuningLog::load(const PipelineDAG &dag, const PipelineKey &key, const Halide::Target &target,
                                          RecordScope scope) const {
    return load(dag, key, conditions_of_this_build(target, key.parallelism), scope);
}

std::vector<TuningRecord> TuningLog::load(const PipelineDAG &dag, const PipelineKey &key,
                                          const MeasureConditions &conditions, RecordScope scope) const {
    const bool applicable_only = scope == RecordScope::applicable;
    std::vector<TuningRecord> out;
    ExcludedRecords excluded(path_, key.hash, key.check, conditions);
    int unfit = 0;
    std::string first_unfit;
    scan([&](TuningRecord &&r) {
        if (r.pipeline != key.hash) {
            if (applicable_only && r.conditions && r.conditions->key_format != conditions.key_format) {
                excluded.other_key_format(r);
            }
            return;
        }
        if (!r.check.empty() && r.check != key.check) {
            excluded.collision(r);
            return;
        }
        if (!applicable_only) {
            if (r.target != conditions.target) return;
        } else if (!r.conditions) {
            if (r.target != conditions.target) excluded.other_conditions(r, {"target"});
            else excluded.unrecorded_conditions(r);
            return;
        } else {
            std::vector<std::string> differing = differing_conditions(*r.conditions, conditions);
            if (!differing.empty()) {
                excluded.other_conditions(r, differing);
                return;
            }
        }
        try {
            r.state = state_within_record_limits(dag, key.names, r.steps);
            out.push_back(std::move(r));
        } catch (const RecordOutOfRange &e) {
            // No search writes such numbers: an edit or corruption, named on its own.
            warn_(where(path_, r.line) + ": skipped a record out of range: " + e.what());
        } catch (const std::exception &e) {
            if (unfit++ == 0) first_unfit = where(path_, r.line) + ": " + e.what();
        }
    });
    excluded.report(warn_);
    if (unfit) {
        warn_(std::to_string(unfit) + " record(s) of this pipeline no longer fit it and were skipped; the first: " +
              first_unfit);
    }
    return out;
}

std::optional<TuningRecord> TuningLog::best(const PipelineDAG &dag, const Halide::Target &target) const {
    return best_record(load(dag, target));
}

std::vector<TuningRecord> TuningLog::read_all() const {
    std::vector<TuningRecord> out;
    scan([&](TuningRecord &&r) { out.push_back(std::move(r)); });
    return out;
}

std::optional<TuningRecord> best_record(const std::vector<TuningRecord> &records) {
    const TuningRecord *best = nullptr;
    for (const TuningRecord &r : records) {
        if (!r.ok || !std::isfinite(r.min_ms)) continue;
        if (!best || r.min_ms < best->min_ms) best = &r;  // strict: the earliest line wins a tie
    }
    if (!best) return std::nullopt;
    return *best;
}

std::vector<TuningRecord> fastest_records(const std::vector<TuningRecord> &records, size_t k) {
    std::vector<const TuningRecord *> ok;
    for (const TuningRecord &r : records) {
        if (r.ok && std::isfinite(r.min_ms)) ok.push_back(&r);
    }
    std::stable_sort(ok.begin(), ok.end(), [](const TuningRecord *a, const TuningRecord *b) { return a->min_ms < b->min_ms; });
    std::vector<TuningRecord> out;
    std::set<std::string> seen;
    for (const TuningRecord *r : ok) {
        if (out.size() >= k) break;
        // The canonical steps identify the program whatever the process.
        if (seen.insert(r->steps.dump()).second) out.push_back(*r);
    }
    return out;
}

}  // namespace ansor
