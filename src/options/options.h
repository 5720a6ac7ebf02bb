#pragma once
// Every HL_ANSOR_* option, read and validated in one place. The Halide 14
// plugin API passes nothing but the pipeline, target and machine params, so
// environment variables are the only channel.
#include <cstdint>
#include <map>
#include <string>

namespace ansor {

struct Options {
    int trials = 64;                 // HL_ANSOR_TRIALS: programs measured
    uint64_t seed = 0;               // HL_ANSOR_SEED: random seed of the search
    double timeout_s = 30;           // HL_ANSOR_TIMEOUT: per-candidate compile+run limit
    int repeats = 10;                // HL_ANSOR_REPEATS: timed runs per candidate (after one warm-up)
    double tolerance = 1e-3;         // HL_ANSOR_TOLERANCE: relative error allowed on float outputs
    int64_t max_innermost_factor = 64;  // HL_ANSOR_MAX_INNERMOST_FACTOR: largest innermost tile
    int auto_unroll_max_step = 512;  // HL_ANSOR_AUTO_UNROLL_MAX_STEP: largest auto-unroll step drawn
    bool verbose = false;            // HL_ANSOR_VERBOSE: print every candidate's schedule
    bool progress = true;            // HL_ANSOR_PROGRESS: progress lines on stderr

    // Reads the process environment. Throws UserError for an unknown
    // HL_ANSOR_ name or a malformed value.
    static Options from_environment();
    static Options from_map(const std::map<std::string, std::string> &vars);
    // name -> one-line description, for the README and error messages.
    static const std::map<std::string, std::string> &documentation();
};

}  // namespace ansor
