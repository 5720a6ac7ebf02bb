#pragma once
// Times a Halide variant the way its user's process runs it: built ahead of
// time into a shared object and run by ansor_runner, a process of its
// own for every sample, timed as RunGen times a built generator
// (src/measure/run_timing.h) on the inputs the variant's JIT copy ran on.
//
// Why not the worker's JIT copy: the worker is forked from the harness, and
// where a program's buffers land in the heap it inherits decides how many
// pages each run faults in; timed in the worker, stencil_chain's chosen
// program read 8.41 ms against 4.68 ms under RunGen (docs/design.md,
// "Measurement"). The tuner times its candidates this way too
// (fresh_process_measurer.h), so the harness and the tuner time Ansor's
// program the same way.
#include "dag/pipeline_dag.h"
#include "measure/runner_program.h"

#include <Halide.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ansor_harness {

class FreshProcessTimer {
public:
    // AOT-compiles `pipeline` for `target` into `dir` (created) and finds the
    // runner; throws (naming what failed) if either cannot be done.
    FreshProcessTimer(const Halide::Pipeline &pipeline, const Halide::Target &target, const std::string &dir,
                      int threads);
    // The inputs the runs read: `inputs` in dag.inputs() order (PipelineRunner::inputs()).
    void write_inputs(const ansor::PipelineDAG &dag, const std::vector<Halide::Buffer<>> &inputs);
    // One run in a fresh process that writes its outputs: the buffers it
    // computed, in output order (to check what is timed).
    std::vector<Halide::Buffer<>> run_for_outputs();
    // `count` samples, one fresh process each, fewer once budget_s is spent
    // (at least one): each the best RunGen-style sample's time per run, in ms.
    std::vector<double> samples_ms(int count, double budget_s);

private:
    // Runs the built program on the inputs with `options` added; the
    // runner's JSON result, or a runtime_error with its output.
    nlohmann::json run_runner(const std::vector<std::string> &options) const;
    std::string dir_;
    int threads_;
    ansor::RunnerProgram program_;
    std::string runner_;
};

}  // namespace ansor_harness
