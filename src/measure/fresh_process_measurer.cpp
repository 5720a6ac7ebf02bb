#include "measure/fresh_process_measurer.h"

#include "measure/gpu_runner_location.h"
#include "measure/input_reads.h"
#include "measure/measure_child.h"
#include "measure/pipeline_runner.h"
#include "measure/reference_inputs.h"
#include "measure/runner_program.h"

#include <cstdio>
#include <filesystem>
#include <unistd.h>

namespace ansor {

std::string fresh_process_obstacle(const PipelineDAG &dag) {
    for (const Node &n : dag.nodes()) {
        if (n.func.has_extern_definition()) {
            return "extern stage '" + n.name + "' calls " + n.func.extern_function_name() +
                   ", which a process of its own cannot load";
        }
    }
    return "";
}

FreshProcessMeasurer::FreshProcessMeasurer(const PipelineDAG &dag, MeasureOptions options)
    : dag_(dag), options_(std::move(options)) {
    if (options_.target.has_gpu_feature()) {
        throw UserError("timing in a fresh process is for CPU targets; " + options_.target.to_string() +
                        " has a GPU API (GPU programs are always run by ansor_gpu_runner)");
    }
    const std::string obstacle = fresh_process_obstacle(dag);
    if (!obstacle.empty()) throw UserError("cannot time candidates in a fresh process: " + obstacle);
    runner_ = gpu_runner_path(options_.gpu_runner);
    work_dir_ = make_measure_work_dir("ansor-fresh");
    try {
        std::filesystem::create_directories(reference_inputs_dir());
        MeasureOptions reference = options_;
        reference.reference_inputs_dir = reference_inputs_dir();
        reference_ = std::make_unique<ForkMeasurer>(dag, reference);
    } catch (...) {
        std::filesystem::remove_all(work_dir_);
        throw;
    }
}

FreshProcessMeasurer::~FreshProcessMeasurer() {
    std::error_code ignored;
    std::filesystem::remove_all(work_dir_, ignored);
}

std::string FreshProcessMeasurer::reference_inputs_dir() const { return work_dir_ + "/reference"; }

std::vector<MeasureResult> FreshProcessMeasurer::measure(const std::vector<State> &states) {
    return measure_with(states.size(), [&](size_t i) { return scheduled_pipeline(dag_, &states[i]); });
}

std::vector<MeasureResult> FreshProcessMeasurer::measure_pipelines(const std::vector<Halide::Pipeline> &pipelines) {
    return measure_with(pipelines.size(), [&](size_t i) { return pipelines[i]; });
}

std::vector<MeasureResult> FreshProcessMeasurer::measure_with(size_t count, const PipelineOf &pipeline_of) {
    std::vector<MeasureResult> results =
        reference_->measure_children(count, [&](size_t i, int fd) { candidate_child(pipeline_of, i, fd); });
    remove_candidate_dirs(work_dir_);
    return results;
}

void FreshProcessMeasurer::candidate_child(const PipelineOf &pipeline_of, size_t index, int control_fd) const {
    const std::string dir = work_dir_ + "/candidate-" + std::to_string(getpid());
    try {
        const Halide::Pipeline pipeline = pipeline_of(index);  // applying a State may throw: a failure
        std::filesystem::create_directories(dir);
        const RunnerProgram program = build_cpu_runner_program(pipeline, options_.target, dir);
        const std::string inputs = reference_inputs_dir() + "/" + kReferenceInputsFile;
        require_reads_within_reference(dag_, inputs, runner_, program.shared_object, program.function);
        report_compiled();
        if (wait_for_go(control_fd)) {
            const RunnerRun run{runner_, {}, inputs, dir, "", true};
            run_and_check_runner_program(dag_, options_, program, run, reference_->reference_outputs());
        }
    } catch (const std::exception &e) {
        std::printf("error: %s\n", e.what());
    }
    std::fflush(stdout);
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
    _exit(0);
}

}  // namespace ansor
