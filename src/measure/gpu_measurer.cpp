#include "measure/gpu_measurer.h"

#include "measure/input_reads.h"
#include "measure/gpu_build.h"
#include "measure/gpu_runner_location.h"
#include "measure/measure_child.h"
#include "measure/output_check.h"
#include "measure/pipeline_runner.h"
#include "measure/reference_inputs.h"
#include "measure/runner_files.h"
#include "measure/subprocess.h"
#include "util/target.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>

namespace ansor {

namespace {

std::string make_work_dir() {
    const char *tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/ansor-gpu-XXXXXX";
    if (!mkdtemp(pattern.data())) throw UserError("cannot create a temporary directory " + pattern);
    return pattern;
}

// The runner's last line of JSON, or a null json.
nlohmann::json last_json_line(const std::string &output) {
    try {
        return nlohmann::json::parse(last_json_text(output));
    } catch (const nlohmann::json::exception &) {
        return nullptr;
    }
}

std::string trimmed(const std::string &text, size_t n = 1200) {
    std::string t = text.size() > n ? text.substr(text.size() - n) : text;
    while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
    return t;
}

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
        p.reason = runner + " --probe " + api + " failed (" + r.describe() + "): " + trimmed(r.output);
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
    work_dir_ = make_work_dir();
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
    return reference_->measure_children(count, [&](size_t i, int fd) { candidate_child(pipeline_of, i, fd); });
}

namespace {

// Runs the built program on the reference's inputs and checks its outputs;
// reports the result line.
void run_and_check(const PipelineDAG &dag, const MeasureOptions &o, const GpuBuild &build, const std::string &runner,
                   const std::vector<std::string> &env, const std::string &inputs, const std::string &out_dir,
                   const void *reference, const std::string &device) {
    const int runs = std::max(1, o.repeats);
    std::vector<std::string> environment = env;
    environment.push_back("HL_NUM_THREADS=" + std::to_string(o.threads));  // the host code's threads, as on the CPU
    TimeSpan timed;
    timed.begin_s = steady_now_s();
    ProcessResult r = run_process({runner, build.shared_object, build.function, "--inputs", inputs, "--outputs-dir",
                                   out_dir, "--runs", std::to_string(runs)},
                                  environment);
    timed.end_s = steady_now_s();
    const nlohmann::json result = last_json_line(r.output);
    if (r.exit_code != 0 || result.is_null()) {
        std::printf("error: %s failed (%s): %s\n", kGpuRunnerName, r.describe().c_str(), trimmed(r.output).c_str());
        return;
    }
    const std::vector<RunnerBuffer> outputs = read_runner_outputs(out_dir + "/outputs.json");
    const std::vector<OutputRule> rules = output_rules(dag, o.tolerance);
    if (outputs.size() != rules.size()) {
        std::printf("error: the program has %zu outputs; the pipeline has %zu\n", outputs.size(), rules.size());
        return;
    }
    const char *ref = static_cast<const char *>(reference);
    for (size_t i = 0; i < outputs.size(); i++) {
        const Halide::Buffer<> got = read_runner_buffer(outputs[i]);
        const OutputComparison c = compare_output(got, ref, rules[i]);
        if (!c.ok()) {
            report_wrong(c.detail, c.worst);
            return;
        }
        ref += got.size_in_bytes();
    }
    report_device(device);
    report_ok(result.value("min_ms", 0.0), result.value("median_ms", 0.0), result.value("runs", (size_t)0), timed);
}

}  // namespace

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
                run_and_check(dag_, options_, build, runner_, runner_env_, inputs, dir, reference_->reference_outputs(),
                              run_device_);
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
