#pragma once
// A tuning log's bytes on disk. Appends are serialised with an exclusive
// flock(2) on the file, so tuners in several processes can share one log;
// reads take a shared flock, so they never see a record half written by a
// live writer. Nothing here truncates or rewrites a byte already written.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ansor {

// Appends `line` (without its newline) as one line of the log at `path`,
// creating the file if needed. Under the lock: if the file does not end in
// a newline (a writer was killed mid-record, or the tail is NUL padding), a
// newline first, so the new record starts a clean line; then the line and
// its newline in a single write(); then fsync. Throws UserError naming the
// path if the file cannot be opened, locked, written or flushed.
void append_log_line(const std::string &path, const std::string &line);

// The whole file, read under a shared lock; nullopt if it does not exist.
// Throws UserError if it exists but cannot be read.
std::optional<std::string> read_log_file(const std::string &path);

// One line of a log and where it starts.
struct LogLine {
    size_t offset = 0;        // byte offset of its first byte in the file
    int number = 0;           // 1-based line number
    std::string text;         // without the newline (and a trailing '\r')
    bool terminated = false;  // a newline follows it
};

std::vector<LogLine> split_log_lines(const std::string &bytes);

}  // namespace ansor
