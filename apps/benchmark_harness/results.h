#pragma once
// A case's results: one row per variant with its status, median time, GFLOP/s
// and ratio to the case's best; the printed tables, and the CSV (with the
// --resume bookkeeping: which cases a CSV already holds).
#include "bench_case.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace ansor_harness {

struct VariantResult {
    std::string variant;
    // ok | failed (build, compile or run error, crash) | wrong (output differs
    // from the reference) | timeout (setup over its limit)
    std::string status = "failed";
    std::string detail;  // why it is not ok; the library's version for vendor variants
    double schedule_s = 0, compile_s = 0;
    double error = NAN;  // max relative error against the reference
    int samples = 0;     // timing samples taken (rounds x samples per round)
    double median_ms = NAN, min_ms = NAN;
    // RunGen's statistic, as a user repeating RunGen sees it: the best sample
    // of each round, median over the rounds. The tuner's time is the best
    // sample of its own window, so this is the figure to hold it against.
    double rungen_ms = NAN;
    // Ansor with a tuning log: the time the tuner measured for the program
    // it applied (the log's best record), to hold the delivered times against.
    double tuned_ms = NAN;
    // All samples, and each round's best sample.
    void set_samples(const std::vector<double> &samples_ms, const std::vector<double> &round_best_ms);
    bool ok() const { return status == "ok"; }
};

struct CaseResult {
    BenchCase bench_case;
    double flops = 0;  // 0: GFLOP/s not defined
    std::vector<VariantResult> variants;
    double best_ms() const;  // over ok variants; NaN if none
};

// The per-case table on stdout: variant, status, median ms, GFLOP/s, its
// share of the machine's measured FMA peak (where peak_gflops > 0), ratio to
// the best, setup seconds; then why each failure failed.
void print_case(const CaseResult &r, double peak_gflops, FILE *out);

// One row per case and one column per variant (ms, or FAILED / WRONG /
// TIMEOUT), then the geometric-mean ratio of each variant to Ansor, and
// Ansor's delivered median over its tuned time per case.
void print_summary(const std::vector<CaseResult> &cases, const std::vector<std::string> &variants, FILE *out);

class ResultsCsv {
public:
    static const char *header();
    // Opens `path` for appending; with resume, an existing file must carry
    // this header and its cases are reported by done(); without resume an
    // existing file is an error (never overwritten).
    ResultsCsv(const std::string &path, bool resume);
    bool done(const std::string &case_name) const { return done_.count(case_name) > 0; }
    void append(const CaseResult &r);
    // Every case in the file, for the final summary (statuses, medians).
    static std::vector<CaseResult> read(const std::string &path);

private:
    std::string path_;
    std::ofstream out_;
    std::set<std::string> done_;
};

// Splits one CSV line (quotes around fields with commas, "" inside them).
std::vector<std::string> split_csv_line(const std::string &line);

}  // namespace ansor_harness
