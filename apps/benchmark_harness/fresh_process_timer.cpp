#include "fresh_process_timer.h"

#include "measure/reference_inputs.h"
#include "measure/runner_files.h"
#include "measure/runner_location.h"
#include "measure/subprocess.h"
#include "options/options.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <stdexcept>

namespace ansor_harness {

namespace {

// RunGen's sampling (0.1 s to reach, 0.4 s at most): ansor_runner's
// --sample-seconds S samples for S/2 to 2S.
constexpr double kRunnerSampleSeconds = 0.2;

// The runner's path as the plugin reads it (HL_ANSOR_RUNNER, or its
// deprecated old name), "" when neither is set.
std::string given_runner() {
    std::map<std::string, std::string> vars;
    for (const char *name : {"HL_ANSOR_RUNNER", "HL_ANSOR_GPU_RUNNER"}) {
        const char *value = std::getenv(name);
        if (value && *value) vars[name] = value;
    }
    return ansor::Options::from_map(vars).runner;
}

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

FreshProcessTimer::FreshProcessTimer(const Halide::Pipeline &pipeline, const Halide::Target &target,
                                     const std::string &dir, int threads)
    : dir_(dir), threads_(threads) {
    std::filesystem::create_directories(dir);
    runner_ = ansor::runner_path(given_runner());
    program_ = ansor::build_cpu_runner_program(pipeline, target, dir, "variant");
}

void FreshProcessTimer::write_inputs(const ansor::PipelineDAG &dag, const std::vector<Halide::Buffer<>> &inputs) {
    ansor::write_reference_inputs(dir_, dag, inputs);
}

nlohmann::json FreshProcessTimer::run_runner(const std::vector<std::string> &options) const {
    std::vector<std::string> argv = {runner_, program_.shared_object, program_.function, "--inputs",
                                     dir_ + "/" + ansor::kReferenceInputsFile};
    argv.insert(argv.end(), options.begin(), options.end());
    const ansor::ProcessResult r = ansor::run_process(argv, {"HL_NUM_THREADS=" + std::to_string(threads_)});
    const nlohmann::json result = ansor::last_json_line(r.output);
    if (r.exit_code != 0 || !result.is_object()) {
        throw std::runtime_error(std::string(ansor::kRunnerName) + " failed (" + r.describe() +
                                 "): " + ansor::output_tail(r.output));
    }
    return result;
}

std::vector<Halide::Buffer<>> FreshProcessTimer::run_for_outputs() {
    const std::string out_dir = dir_ + "/outputs";
    std::filesystem::create_directories(out_dir);
    run_runner({"--outputs-dir", out_dir, "--runs", "1"});
    std::vector<Halide::Buffer<>> outputs;
    for (const ansor::RunnerBuffer &b : ansor::read_runner_outputs(out_dir + "/outputs.json")) {
        outputs.push_back(ansor::read_runner_buffer(b));
    }
    return outputs;
}

std::vector<double> FreshProcessTimer::samples_ms(int count, double budget_s) {
    std::vector<double> out;
    const double begin = now_s();
    for (int i = 0; i < count && (i == 0 || now_s() - begin < budget_s); i++) {
        const nlohmann::json result = run_runner({"--runs", "1", "--sample-seconds", std::to_string(kRunnerSampleSeconds)});
        if (!result.contains("min_ms")) {
            throw std::runtime_error(std::string(ansor::kRunnerName) + " gave no time: " + result.dump());
        }
        out.push_back(result["min_ms"].get<double>());
    }
    return out;
}

}  // namespace ansor_harness
