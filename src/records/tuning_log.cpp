#include "records/tuning_log.h"

#include "records/canonical_steps.h"
#include "util/errors.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ansor {

namespace {

std::string where(const std::string &path, int line) { return path + ":" + std::to_string(line); }

std::string system_error(const std::string &what, const std::string &path) {
    return what + " tuning log '" + path + "': " + std::strerror(errno);
}

// nlohmann's message without its "[json.exception.parse_error.101] parse
// error at line 1, " prefix: the caller names the line.
std::string parse_reason(const nlohmann::json::parse_error &e) {
    std::string m = e.what();
    size_t at = m.find("column");
    return at == std::string::npos ? m : m.substr(at);
}

// A line that stops mid-record: the parser ran out of input rather than
// meeting a wrong character. That is what a killed writer leaves behind.
bool cut_short(const nlohmann::json::parse_error &e, const std::string &line) { return e.byte >= line.size(); }

void write_all(int fd, const std::string &data, const std::string &path) {
    size_t done = 0;
    while (done < data.size()) {
        ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw UserError(system_error("cannot write to", path));
        done += (size_t)n;
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

void TuningLog::append(const TuningRecord &record) const {
    std::string line = record_line(record) + "\n";
    // O_APPEND: every write goes to the end, whatever else writes the file;
    // no O_TRUNC: what is there stays byte for byte.
    int fd = ::open(path_.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    bool readable = fd >= 0;
    if (fd < 0 && errno == EACCES) fd = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) throw UserError(system_error("cannot open", path_));
    try {
        // After a writer was killed mid-line, start on a fresh line so this
        // record does not glue onto the cut one.
        struct stat st {};
        if (readable && ::fstat(fd, &st) == 0 && st.st_size > 0) {
            char last = '\n';
            if (::pread(fd, &last, 1, st.st_size - 1) == 1 && last != '\n') line = "\n" + line;
        }
        // One write() for the whole line, so concurrent appenders never interleave.
        write_all(fd, line, path_);
        if (::fsync(fd) != 0) throw UserError(system_error("cannot flush", path_));
    } catch (...) {
        ::close(fd);
        throw;
    }
    ::close(fd);
}

void TuningLog::scan(const std::function<void(TuningRecord &&)> &keep) const {
    std::ifstream in(path_, std::ios::binary);
    if (!in) {
        struct stat st {};
        if (::stat(path_.c_str(), &st) != 0 && errno == ENOENT) return;  // created by the first append
        throw UserError(system_error("cannot read", path_));
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();

    size_t pos = 0;
    int number = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        const bool terminated = end != std::string::npos;
        if (!terminated) end = text.size();
        std::string line = text.substr(pos, end - pos);
        pos = terminated ? end + 1 : end;
        number++;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) continue;

        nlohmann::json j;
        try {
            j = nlohmann::json::parse(line);
        } catch (const nlohmann::json::parse_error &e) {
            if (!terminated || cut_short(e, line)) {
                warn_(where(path_, number) + ": record cut short (a tuning process was probably killed while "
                                             "writing it); skipped");
                continue;
            }
            throw UserError(where(path_, number) + ": malformed tuning record, not JSON (" + parse_reason(e) + ")");
        }
        TuningRecord r;
        try {
            r = record_from_json(j);
        } catch (const std::exception &e) {
            throw UserError(where(path_, number) + ": malformed tuning record: " + e.what());
        }
        r.line = number;
        keep(std::move(r));
    }
}

std::vector<TuningRecord> TuningLog::load(const PipelineDAG &dag, const Halide::Target &target) const {
    return load(dag, make_pipeline_key(dag), target);
}

std::vector<TuningRecord> TuningLog::load(const PipelineDAG &dag, const PipelineKey &key,
                                          const Halide::Target &target) const {
    const std::string target_name = target.to_string();
    std::vector<TuningRecord> out;
    int unfit = 0;
    std::string first_unfit;
    scan([&](TuningRecord &&r) {
        if (r.pipeline != key.hash || r.target != target_name) return;
        try {
            State s = state_from_canonical_steps(dag, key.names, r.steps);
            s.replay();
            r.state = std::move(s);
            out.push_back(std::move(r));
        } catch (const std::exception &e) {
            if (unfit++ == 0) first_unfit = where(path_, r.line) + ": " + e.what();
        }
    });
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
