#pragma once
// The conditions a measurement was made under. A tuning record's time means
// something only under the thread count, host CPU and target it was taken
// with, and its steps only in the step format and under the pipeline key
// format that wrote it; so a record is applied (as the best program, as
// history that trains the model and seeds a search) only where every one of
// these equals this run's (docs/tuning_log.md, "The record key").
#include <Halide.h>

#include <string>
#include <vector>

namespace ansor {

struct MeasureConditions {
    std::string target;       // Halide::Target::to_string() of the target the search was given
    int threads = 1;          // the thread count the measurement ran with (HL_NUM_THREADS)
    std::string host;         // host_cpu_id() of the machine that measured
    int steps_format = 0;     // kStepsFormatVersion of the build that wrote the steps
    std::string feature_set;  // feature_set_version() of that build
    std::string key_format;   // pipeline_key_format() of that build

    bool operator==(const MeasureConditions &o) const;
};

// This build's conditions for a measurement on `target` with `threads` threads.
MeasureConditions conditions_of_this_build(const Halide::Target &target, int threads);

// The host CPU: the first "model name" of /proc/cpuinfo (x86, and the
// kernel's name elsewhere), else "CPU implementer"/"CPU part" (ARM), else
// the machine name from uname(); runs of white space are made one space.
// Computed once per process.
const std::string &host_cpu_id();

// The names of the conditions in which `record` differs from `ours` and
// which keep it from applying, in the order of the struct: "target",
// "thread count", "host CPU", "steps format", "pipeline key format". The
// feature set is recorded but not compared: it does not change what a
// record's program is or how fast it ran.
std::vector<std::string> differing_conditions(const MeasureConditions &record, const MeasureConditions &ours);

// The value of one named condition, for messages ("16", "\"AMD EPYC\"").
std::string condition_value(const MeasureConditions &c, const std::string &name);

}  // namespace ansor
