#pragma once
// Helpers shared by the tuning-log tests: a temporary log file, a warning
// collector, sampled programs of a pipeline and made-up measurements.
#include "annotate/random_annotator.h"
#include "records/tuning_log.h"
#include "sketch/sketch_generator.h"

#include <doctest/doctest.h>

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace ansor_test {

using namespace ansor;

inline Halide::Target cpu() { return Halide::Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41"); }

inline std::vector<State> samples(const PipelineDAG &dag, int n, uint64_t seed) {
    auto sketches = generate_sketches({dag, cpu()});
    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, cpu(), ao);
    std::mt19937_64 rng(seed);
    std::vector<State> out;
    for (int i = 0; (int)out.size() < n && i < 20 * n; i++) {
        try {
            out.push_back(annotator.annotate(sketches[i % sketches.size()], rng));
        } catch (const InvalidState &) {
        }
    }
    REQUIRE(!out.empty());
    return out;
}

inline MeasureResult result(double ms, bool ok = true) {
    MeasureResult r;
    r.ok = ok;
    r.error = ok ? "" : "wrong output";
    r.min_ms = ms;
    r.median_ms = ms * 1.1;
    r.seconds = 0.5;
    return r;
}

// A fresh path in the temp directory, removed again at scope exit.
struct TempLog {
    std::string path;
    TempLog() {
        static std::atomic<int> counter{0};
        path = (std::filesystem::temp_directory_path() /
                ("ansor_records_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".jsonl"))
                   .string();
        std::filesystem::remove(path);
    }
    ~TempLog() { std::filesystem::remove(path); }
    std::string read() const {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream s;
        s << in.rdbuf();
        return s.str();
    }
    void write_raw(const std::string &bytes) const {
        std::ofstream out(path, std::ios::binary | std::ios::app);
        out << bytes;
    }
};

// Collects warnings instead of printing them.
struct Warnings {
    std::vector<std::string> seen;
    TuningLog::WarningSink sink() {
        return [this](const std::string &m) { seen.push_back(m); };
    }
};

}  // namespace ansor_test
