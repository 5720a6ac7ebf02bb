#pragma once
// RunnerMeasurer: what GpuMeasurer and FreshProcessMeasurer share. The
// reference (every Func at root) runs in ForkMeasurer's child, which also
// writes the inputs it ran on to this measurer's work directory; each
// candidate is built and run in a child of ForkMeasurer's batch machinery
// (builders, deadlines, sandbox.h) by the subclass's build_and_run, which
// has ansor_runner run it in a process of its own
// (runner_program.h).
#include "measure/measurer.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ansor {

class RunnerMeasurer : public Measurer {
public:
    ~RunnerMeasurer() override;
    // States of the DAG's pipeline, applied to a deep copy as ForkMeasurer does.
    std::vector<MeasureResult> measure(const std::vector<State> &states) override;
    // Pipelines scheduled by hand: each computes the DAG's outputs (same
    // names, types and order) from inputs of the same names as the DAG's.
    std::vector<MeasureResult> measure_pipelines(const std::vector<Halide::Pipeline> &pipelines);

    const MeasureResult &reference() const { return reference_->reference(); }
    const std::string &runner() const { return runner_; }
    // The directory holding the reference's inputs (inputs.json and raw files).
    std::string reference_inputs_dir() const;

protected:
    // Finds the runner (runner_location.h), makes the work directory
    // <TMPDIR>/<work_dir_prefix>-<pid>-XXXXXX (temp_dirs.h) and runs the reference with
    // `reference_options` (MeasurementUnavailable as ForkMeasurer throws it).
    RunnerMeasurer(const PipelineDAG &dag, MeasureOptions options, MeasureOptions reference_options,
                   const std::string &work_dir_prefix);

    // In candidate `pipeline`'s sandboxed child, with `dir` (created) for
    // its files: build and check it, then follow measure_child.h's protocol
    // (report_compiled, wait_for_go, a result line). Throws for a failure.
    virtual void build_and_run(const Halide::Pipeline &pipeline, const std::string &dir, int control_fd) const = 0;

    // The reference's inputs file, as the runner's --inputs.
    std::string reference_inputs() const;
    const void *reference_outputs() const { return reference_->reference_outputs(); }

    const PipelineDAG &dag_;
    const MeasureOptions options_;

private:
    using PipelineOf = std::function<Halide::Pipeline(size_t)>;
    std::vector<MeasureResult> measure_with(size_t count, const PipelineOf &pipeline_of);
    [[noreturn]] void candidate_child(const PipelineOf &pipeline_of, size_t index, int control_fd) const;

    std::string runner_;
    std::string work_dir_;
    std::unique_ptr<ForkMeasurer> reference_;  // its reference and its batch machinery
};

}  // namespace ansor
