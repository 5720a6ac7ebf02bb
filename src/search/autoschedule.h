#pragma once
// The plugin's whole path for one pipeline: analyse, tune (a TuningSession
// configured by the HL_ANSOR_* options), apply the chosen program to the
// pipeline's Funcs, and return its source.
#include "options/options.h"

#include <Halide.h>

#include <string>
#include <vector>

namespace ansor {

struct AutoscheduleResult {
    std::string schedule_source;
    bool measured = false;  // false when nothing valid was measured
    bool from_log = false;  // applied the tuning log's best record without measuring
    double best_ms = 0;
    int trials = 0, failures = 0;
    std::string not_measured_because;  // why nothing could be measured, if so
    std::vector<std::string> warnings;  // the analysis's (constraints that override estimates)
};

AutoscheduleResult autoschedule(const std::vector<Halide::Internal::Function> &outputs, const Halide::Target &target,
                                int parallelism, const Options &options);

}  // namespace ansor
