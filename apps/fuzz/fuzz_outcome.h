#pragma once
// What the fuzzer (ansor_fuzz, docs/fuzzing.md) counts per scheduler: each
// program it checked lands in one class.
#include <map>
#include <string>
#include <vector>

namespace ansor_fuzz {

enum class Outcome {
    Ok,             // compiled, ran, matched the unscheduled pipeline
    Crash,          // killed by a signal, or timed out
    InternalError,  // the scheduler or Halide refused or failed (compile error, out-of-bounds read, exception)
    WrongOutput,    // ran, but differs from the unscheduled pipeline beyond the tolerance
    Refused,        // --replay only: a recorded program the search now refuses to build (InvalidState)
};

const char *outcome_name(Outcome o);

// A measurement error string (MeasureResult::error) classified.
Outcome classify_error(const std::string &error);

struct Finding {
    std::string scheduler;
    uint64_t seed = 0;
    Outcome outcome = Outcome::Ok;
    std::string detail;  // the error, shortened
};

// Counts per scheduler, in first-seen order, and every finding that is not Ok.
class FuzzTally {
public:
    void add(const Finding &f);
    int count(const std::string &scheduler, Outcome o) const;
    int bad(const std::string &scheduler) const;  // crashes + internal errors + wrong outputs (not refusals)
    const std::vector<Finding> &failures() const { return failures_; }
    // One line per scheduler: "Ansor: 0 crashes, 0 internal errors, 0 wrong outputs, 80 ok".
    std::string table() const;

private:
    std::vector<std::string> schedulers_;
    std::map<std::string, std::map<Outcome, int>> counts_;
    std::vector<Finding> failures_;
};

}  // namespace ansor_fuzz
