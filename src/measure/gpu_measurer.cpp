#include "measure/gpu_measurer.h"

#include "measure/input_reads.h"
#include "measure/gpu_build.h"
#include "measure/runner_location.h"
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

// What ansor_runner --probe says: whether usable, the device to run on
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

MeasureOptions gpu_options(MeasureOptions options) {
    if (!options.target.has_gpu_feature()) {
        throw UserError("GpuMeasurer needs a target with a GPU API (cuda or opencl), not " + options.target.to_string());
    }
    return options;
}

// The reference runs on the target's CPU part.
MeasureOptions reference_options(const MeasureOptions &gpu) {
    MeasureOptions o = gpu;
    o.target = measurement_target(without_gpu_features(gpu.target));
    return o;
}

}  // namespace

GpuMeasurer::GpuMeasurer(const PipelineDAG &dag, MeasureOptions options, GpuMeasureSettings settings)
    : RunnerMeasurer(dag, gpu_options(options), reference_options(options), "ansor-gpu"), settings_(settings) {
    probe_devices();
}

void GpuMeasurer::probe_devices() {
    const bool cuda = options_.target.has_feature(Halide::Target::CUDA);
    run_target_ = options_.target;
    Probe p = probe(runner(), cuda ? "cuda" : "opencl");
    if (!p.usable && cuda && settings_.verify_cuda_on_opencl) {
        const std::string why = p.reason;
        run_target_ = opencl_twin(options_.target);
        p = probe(runner(), "opencl");
        if (!p.usable) p.reason = "no CUDA device (" + why + ") and no OpenCL device (" + p.reason + ")";
    }
    if (!p.usable) {
        no_device_reason_ = cuda && !settings_.verify_cuda_on_opencl ? "no CUDA device (" + p.reason + ")" : p.reason;
        return;
    }
    run_device_ = p.device;
    runner_env_ = p.env;
}

void GpuMeasurer::build_and_run(const Halide::Pipeline &pipeline, const std::string &dir, int control_fd) const {
    std::filesystem::create_directories(dir + "/build");
    // The target's own build: for CUDA, ptxas checks it against the limits.
    GpuBuild build = build_gpu_program(pipeline, options_.target, dir + "/build");
    if (!runs_programs()) {
        report_not_run(no_device_reason_ + "; built, and its kernels are within the GPU limits");
        return;
    }
    if (!(run_target_ == options_.target)) {
        std::filesystem::create_directories(dir + "/twin");
        build = build_gpu_program(pipeline, run_target_, dir + "/twin");
    }
    require_reads_within_reference(dag_, reference_inputs(), runner(), build.shared_object, build.function);
    report_compiled();
    if (wait_for_go(control_fd)) {
        const RunnerRun run{runner(), runner_env_, reference_inputs(), dir, run_device_, false};
        run_and_check_runner_program(dag_, options_, {build.function, build.static_library, build.shared_object}, run,
                                     reference_outputs());
    }
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
