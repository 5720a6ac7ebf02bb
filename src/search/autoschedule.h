#pragma once
// The whole path for one pipeline: analyse, enumerate sketches, search,
// apply the best program to the pipeline's Funcs, and return its source.
#include "options/options.h"
#include "search/tuner.h"

#include <Halide.h>

namespace ansor {

struct AutoscheduleResult {
    std::string schedule_source;
    bool measured = false;  // false when nothing valid was measured
    bool from_log = false;  // applied the tuning log's best record without measuring
    double best_ms = 0;
    int trials = 0, failures = 0;
};

// The annotation settings the options ask for (shared with ansor_tune_tasks).
AnnotationOptions annotation_options(const Options &options, int parallelism);

AutoscheduleResult autoschedule(const std::vector<Halide::Internal::Function> &outputs, const Halide::Target &target,
                                int parallelism, const Options &options);

}  // namespace ansor
