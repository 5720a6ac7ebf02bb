#pragma once
// The worker for one Halide variant of a case (runs in a forked child, see
// worker_process.h): builds the case's pipeline, schedules it — every Func
// at root (the reference), the app's hand-written schedule, or an
// autoscheduler loaded as a plugin — JIT-compiles it, runs it once on the
// inputs every variant shares, also builds it ahead of time for timing in
// fresh processes (fresh_process_timer.h), and then serves the harness's
// requests (worker_protocol.h): timing samples, dumping its outputs and
// inputs (the reference does, for the checks and the vendor libraries), and
// checking its outputs (the JIT copy's and the built program's) against a
// dump.
#include "bench_case.h"

#include <Halide.h>

#include <string>

namespace ansor_harness {

struct HalideVariantSpec {
    const BenchCase *bench_case = nullptr;
    std::string variant;  // "root", "expert", or an autoscheduler variant (harness_options.h)
    Halide::Target target;
    int threads = 2;
    // Ansor: the environment the plugin reads (HL_ANSOR_TRIALS, HL_ANSOR_LOG,
    // HL_ANSOR_SEARCH, HL_ANSOR_MODEL); an empty search leaves the plugin's
    // default; an empty model leaves the shipped one (ansor_model_of).
    int ansor_trials = 0;
    std::string ansor_log;
    std::string ansor_search;
    std::string ansor_model;
    std::string ansor_judge;  // HL_ANSOR_JUDGE_MODEL; empty leaves the shipped judge (ansor_judge_of)
    std::string schedule_file;  // autoschedulers: where their schedule source is saved
    std::string curve_file;     // Ansor: where the tuning curve rows go (trial,ok,ms,best_ms)
    // Time in a fresh process per sample (fresh_process_timer.h), building
    // the program there in `work_dir`; else time the JIT copy in this worker.
    bool fresh_process_timing = true;
    std::string work_dir;
};

// The child's whole life; returns its exit status.
int run_halide_worker(const HalideVariantSpec &spec);

}  // namespace ansor_harness
