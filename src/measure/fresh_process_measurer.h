#pragma once
// FreshProcessMeasurer: times each CPU candidate as its user's process runs
// it. ForkMeasurer's children are forked from the tuner and inherit its heap:
// the free blocks, per-thread arenas and thresholds of everything the tuner
// allocated. fresh_process_heap.h puts the thresholds back where a fresh
// process has them, but not the rest, and where a program's buffers land in
// that heap decides how many pages each run faults in (docs/design.md,
// "Measurement"): stencil_chain's and camera_pipe's chosen programs ran
// slower under RunGen than in the tuner.
//
// Here each candidate is AOT-compiled into a shared object in a sandboxed
// child (RunnerMeasurer) and run by ansor_runner, a fresh process that
// links no Halide, on the reference's inputs; its outputs are checked
// against the reference by output_check.h's rules, and it is timed as
// RunGen times (run_timing.h). Each candidate costs a link
// and two process starts more than under ForkMeasurer (docs/design.md,
// "Measurement"). A fresh process is not one layout: whether glibc trims the
// heap's top after each run, so that the next run faults its buffers in
// again, turns on where small blocks land, down to the length of a file
// path (docs/decisions.md, "Measured against delivered"). The tuning session measures
// CPU candidates this way unless HL_ANSOR_TIMING=in-tuner, or the pipeline
// has an extern stage (fresh_process_obstacle).
#include "measure/runner_measurer.h"

#include <string>

namespace ansor {

// Why `dag`'s candidates cannot run in a fresh process, or "": an extern
// stage calls a function that the tuner's process defines (the JIT resolves
// it there) but a process of its own would not.
std::string fresh_process_obstacle(const PipelineDAG &dag);

class FreshProcessMeasurer : public RunnerMeasurer {
public:
    // options.target must be a CPU target and the pipeline free of
    // fresh_process_obstacle (UserError otherwise). Runs the reference
    // (MeasurementUnavailable as ForkMeasurer throws it) and finds the
    // runner (runner_location.h).
    FreshProcessMeasurer(const PipelineDAG &dag, MeasureOptions options);

private:
    void build_and_run(const Halide::Pipeline &pipeline, const std::string &dir, int control_fd) const override;
};

}  // namespace ansor
