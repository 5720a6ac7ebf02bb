#include "measure/gpu_measurer.h"

#include "measure/input_reads.h"
#include "measure/gpu_build.h"
#include "measure/gpu_runner_location.h"
#include "measure/measure_child.h"
#include "measure/pipeline_runner.h"
#include "measure/reference_inputs.h"
#include "measure/runner_files.h"
#include "measure/runner_program.h"
#include "measure/subprocess.h"
#include "util/target.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>

namespace ansor {

namespace {

// What ansor_gpu_runner --probe says: whether usable, the device to run on
// and the environment that selects it.
struct Probe {
    bool usable = false;
    std::string device, reason;
    std::vector<std::string> env;
};

Probe probe(const std::string &runner, const std::string &api) {
    Probe p;
    ProcessResult r = run_process({runner, "--probe", api});
    const nlohmann::json j = last_json_line(r.output);
    if (j.is_null()) {
        p.reason = runner + " --probe " + api + " failed (" + r.describe() + "): " + output_tail(r.output);
        return p;
    }
    p.usable = j.value("usable", false);
    if (!p.usable) {
        p.reason = j.value("reason", "no usable device");
        return p;
    }
    const nlohmann::json *chosen = nullptr;
    for (const nlohmann::json &d : j["devices"]) {
        if (d.value("type", "") == "gpu" && !chosen) chosen = &d;
    }
    if (chosen) {
        p.device = api + "-gpu: " + chosen->value("name", "?");
        return p;
    }
    const nlohmann::json &d = j["devices"][0];
    const bool pocl = d.value("platform", "") == "Portable Computing Language";
    p.device = pocl ? "pocl-cpu" : "opencl-" + d.value("type", "cpu") + ": " + d.value("name", "?");
    if (d.value("type", "") == "cpu") p.env.push_back("HL_OCL_DEVICE_TYPE=cpu");
    return p;
}

MeasureOptions reference_options(const MeasureOptions &gpu, const std::string &inputs_dir) {
    MeasureOptions o = gpu;
    o.target = measurement_target(without_gpu_features(gpu.target));
    o.reference_inputs_dir = inputs_dir;
    return o;
}

}  // namespace

GpuMeasurer::GpuMeasurer(const PipelineDAG &dag, MeasureOptions options, GpuMeasureSettings settings)
    : dag_(dag), options_(std::move(options)), settings_(settings) {
    if (!options_.target.has_gpu_feature()) {
        throw UserError("GpuMeasurer needs a target with a GPU API (cuda or opencl), not " + options_.target.to_string());
    }
    runner_ = gpu_runner_path(options_.gpu_runner);
    probe_devices();
    work_dir_ = make_measure_work_dir("ansor-gpu");
    try {
        std::filesystem::create_directories(reference_inputs_dir());
        reference_ = std::make_unique<ForkMeasurer>(dag, reference_options(options_, reference_inputs_dir()));
    } catch (...) {
        std::filesystem::remove_all(work_dir_);
        throw;
    }
}

GpuMeasurer::~GpuMeasurer() {
    std::error_code ignored;
    std::filesystem::remove_all(work_dir_, ignored);
}

std::string GpuMeasurer::reference_inputs_dir() const { return work_dir_ + "/reference"; }

void GpuMeasurer::probe_devices() {
    const bool cuda = options_.target.has_feature(Halide::Target::CUDA);
    run_target_ = options_.target;
    Probe p = probe(runner_, cuda ? "cuda" : "opencl");
    if (!p.usable && cuda && settings_.verify_cuda_on_opencl) {
        const std::string why = p.reason;
        run_target_ = opencl_twin(options_.target);
        p = probe(runner_, "opencl");
        if (!p.usable) p.reason = "no CUDA device (" + why + ") and no OpenCL device (" + p.reason + ")";
    }
    if (!p.usable) {
        no_device_reason_ = cuda && !settings_.verify_cuda_on_opencl ? "no CUDA device (" + p.reason + ")" : p.reason;
        return;
    }
    run_device_ = p.device;
    runner_env_ = p.env;
}

std::vector<MeasureResult> GpuMeasurer::measure(const std::vector<State> &states) {
    return measure_with(states.size(), [&](size_t i) { return scheduled_pipeline(dag_, &states[i]); });
}

std::vector<MeasureResult> GpuMeasurer::measure_pipelines(const std::vector<Halide::Pipeline> &pipelines) {
    return measure_with(pipelines.size(), [&](size_t i) { return pipelines[i]; });
}

std::vector<MeasureResult> GpuMeasurer::measure_with(size_t count, const PipelineOf &pipeline_of) {
    std::vector<MeasureResult> results =
        reference_->measure_children(count, [&](size_t i, int fd) { candidate_child(pipeline_of, i, fd); });
    remove_candidate_dirs(work_dir_);
    return results;
}

void GpuMeasurer::candidate_child(const PipelineOf &pipeline_of, size_t index, int control_fd) const {
    const std::string dir = work_dir_ + "/candidate-" + std::to_string(getpid());
    try {
        const Halide::Pipeline pipeline = pipeline_of(index);  // applying a State may throw: a failure
        std::filesystem::create_directories(dir + "/build");
        // The target's own build: for CUDA, ptxas checks it against the limits.
        GpuBuild build = build_gpu_program(pipeline, options_.target, dir + "/build");
        if (!runs_programs()) {
            report_not_run(no_device_reason_ + "; built, and its kernels are within the GPU limits");
        } else {
            if (!(run_target_ == options_.target)) {
                std::filesystem::create_directories(dir + "/twin");
                build = build_gpu_program(pipeline, run_target_, dir + "/twin");
            }
            const std::string inputs = reference_inputs_dir() + "/" + kReferenceInputsFile;
            require_reads_within_reference(dag_, inputs, runner_, build.shared_object, build.function);
            report_compiled();
            if (wait_for_go(control_fd)) {
                const RunnerRun run{runner_, runner_env_, inputs, dir, run_device_, false};
                run_and_check_runner_program(dag_, options_, {build.function, build.static_library, build.shared_object},
                                             run, reference_->reference_outputs());
            }
        }
    } catch (const std::exception &e) {
        std::printf("error: %s\n", e.what());
    }
    std::fflush(stdout);
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
    _exit(0);
}

std::vector<MeasureResult> verify_cuda_schedules_on_opencl(const PipelineDAG &dag, const MeasureOptions &options,
                                                           const std::vector<State> &states) {
    GpuMeasurer m(dag, options, GpuMeasureSettings{true});
    return m.measure(states);
}

std::vector<MeasureResult> verify_cuda_pipelines_on_opencl(const PipelineDAG &dag, const MeasureOptions &options,
                                                           const std::vector<Halide::Pipeline> &pipelines) {
    GpuMeasurer m(dag, options, GpuMeasureSettings{true});
    return m.measure_pipelines(pipelines);
}

}  // namespace ansor
