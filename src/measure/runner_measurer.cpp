#include "measure/runner_measurer.h"

#include "measure/runner_location.h"
#include "measure/pipeline_runner.h"
#include "measure/reference_inputs.h"
#include "measure/runner_program.h"
#include "measure/temp_dirs.h"

#include <cstdio>
#include <filesystem>
#include <unistd.h>

namespace ansor {

RunnerMeasurer::RunnerMeasurer(const PipelineDAG &dag, MeasureOptions options, MeasureOptions reference_options,
                               const std::string &work_dir_prefix)
    : dag_(dag), options_(std::move(options)) {
    runner_ = runner_path(options_.runner);
    work_dir_ = make_temp_dir(work_dir_prefix);
    try {
        std::filesystem::create_directories(reference_inputs_dir());
        reference_options.reference_inputs_dir = reference_inputs_dir();
        reference_ = std::make_unique<ForkMeasurer>(dag, reference_options);
    } catch (...) {
        remove_temp_dir(work_dir_);
        throw;
    }
}

RunnerMeasurer::~RunnerMeasurer() { remove_temp_dir(work_dir_); }

std::string RunnerMeasurer::reference_inputs_dir() const { return work_dir_ + "/reference"; }

std::string RunnerMeasurer::reference_inputs() const { return reference_inputs_dir() + "/" + kReferenceInputsFile; }

std::vector<MeasureResult> RunnerMeasurer::measure(const std::vector<State> &states) {
    return measure_with(states.size(), [&](size_t i) { return scheduled_pipeline(dag_, &states[i]); });
}

std::vector<MeasureResult> RunnerMeasurer::measure_pipelines(const std::vector<Halide::Pipeline> &pipelines) {
    return measure_with(pipelines.size(), [&](size_t i) { return pipelines[i]; });
}

std::vector<MeasureResult> RunnerMeasurer::measure_with(size_t count, const PipelineOf &pipeline_of) {
    std::vector<MeasureResult> results =
        reference_->measure_children(count, [&](size_t i, int fd) { candidate_child(pipeline_of, i, fd); });
    remove_candidate_dirs(work_dir_);
    return results;
}

void RunnerMeasurer::candidate_child(const PipelineOf &pipeline_of, size_t index, int control_fd) const {
    const std::string dir = work_dir_ + "/candidate-" + std::to_string(getpid());
    try {
        const Halide::Pipeline pipeline = pipeline_of(index);  // applying a State may throw: a failure
        std::filesystem::create_directories(dir);
        build_and_run(pipeline, dir, control_fd);
    } catch (const std::exception &e) {
        std::printf("error: %s\n", e.what());
    }
    std::fflush(stdout);
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
    _exit(0);
}

}  // namespace ansor
