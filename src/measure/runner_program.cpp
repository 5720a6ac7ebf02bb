#include "measure/runner_program.h"

#include "measure/runner_location.h"
#include "measure/measure_child.h"
#include "measure/output_check.h"
#include "measure/pipeline_runner.h"
#include "measure/strict_float_check.h"
#include "measure/reference_inputs.h"
#include "measure/runner_files.h"
#include "measure/subprocess.h"
#include "util/errors.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace ansor {

std::string output_tail(const std::string &text, size_t n) {
    std::string t = text.size() > n ? text.substr(text.size() - n) : text;
    while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
    return t;
}

nlohmann::json last_json_line(const std::string &output) {
    try {
        return nlohmann::json::parse(last_json_text(output));
    } catch (const nlohmann::json::exception &) {
        return nullptr;
    }
}

RunnerProgram runner_program_files(const std::string &dir, const std::string &function) {
    return {function, dir + "/" + function + ".a", dir + "/" + function + ".so"};
}

void link_shared_object(const RunnerProgram &p) {
    const char *cc = std::getenv("CC");
    ProcessResult r = run_process({cc && *cc ? cc : "cc", "-shared", "-o", p.shared_object, "-Wl,--whole-archive",
                                   p.static_library, "-Wl,--no-whole-archive", "-ldl", "-lpthread", "-lm"});
    if (r.exit_code != 0) {
        throw UserError("linking " + p.static_library + " into a shared object failed (" + r.describe() +
                        "): " + output_tail(r.output, 1500));
    }
}

RunnerProgram build_cpu_runner_program(const Halide::Pipeline &pipeline, const Halide::Target &target,
                                       const std::string &dir, const std::string &function) {
    if (target.has_gpu_feature()) {
        throw UserError("a CPU build needs a target without a GPU API, not " + target.to_string());
    }
    const RunnerProgram p = runner_program_files(dir, function);
    Halide::Pipeline copy = pipeline;
    copy.compile_to_static_library(dir + "/" + function, copy.infer_arguments(), function, target);
    link_shared_object(p);
    return p;
}

void remove_candidate_dirs(const std::string &work_dir) {
    std::error_code ignored;
    for (const auto &entry : std::filesystem::directory_iterator(work_dir, ignored)) {
        if (entry.path().filename().string().rfind("candidate-", 0) == 0) std::filesystem::remove_all(entry.path(), ignored);
    }
}

namespace {

// The runner's result line and the program's outputs, dense, in output order.
struct RunnerOutcome {
    nlohmann::json result;
    std::vector<Halide::Buffer<>> outputs;
    size_t output_bytes = 0;
};

// Runs the runner once as `argv` says; false after printing an error line.
bool run_runner(const std::vector<std::string> &argv, const std::vector<std::string> &environment,
                const std::string &outputs_dir, size_t expected_outputs, RunnerOutcome &out, TimeSpan *timed = nullptr) {
    if (timed) timed->begin_s = steady_now_s();
    ProcessResult r = run_process(argv, environment);
    if (timed) timed->end_s = steady_now_s();
    out.result = last_json_line(r.output);
    if (r.exit_code != 0 || out.result.is_null()) {
        std::printf("error: %s failed (%s): %s\n", kRunnerName, r.describe().c_str(), output_tail(r.output).c_str());
        return false;
    }
    const std::vector<RunnerBuffer> outputs = read_runner_outputs(outputs_dir + "/outputs.json");
    if (outputs.size() != expected_outputs) {
        std::printf("error: the program has %zu outputs; the pipeline has %zu\n", outputs.size(), expected_outputs);
        return false;
    }
    for (const RunnerBuffer &b : outputs) {
        out.outputs.push_back(read_runner_buffer(b));
        out.output_bytes += out.outputs.back().size_in_bytes();
    }
    return true;
}

}  // namespace

void run_and_check_runner_program(const PipelineDAG &dag, const MeasureOptions &o, const RunnerProgram &program,
                                  const RunnerRun &run, const void *reference, const Halide::Pipeline *candidate) {
    std::vector<std::string> argv = {run.runner,        program.shared_object, program.function, "--inputs",
                                     run.inputs,        "--outputs-dir",       run.outputs_dir,  "--runs"};
    std::vector<std::string> once = argv;
    once.push_back("1");
    argv.push_back(std::to_string(std::max(1, o.repeats)));
    if (run.sampled && o.measure_seconds > 0) {
        argv.push_back("--sample-seconds");
        argv.push_back(std::to_string(o.measure_seconds));
    }
    std::vector<std::string> environment = run.env;
    environment.push_back("HL_NUM_THREADS=" + std::to_string(o.threads));
    const std::vector<OutputRule> rules = output_rules(dag, o.tolerance);
    TimeSpan timed;
    RunnerOutcome measured;
    if (!run_runner(argv, environment, run.outputs_dir, rules.size(), measured, &timed)) return;
    const std::vector<Halide::Buffer<>> &got = measured.outputs;
    // ForkMeasurer's shared reference: the outputs, then their rounding
    // spread in the same layout.
    const char *base = static_cast<const char *>(reference);
    const char *ref = base, *spread = base + measured.output_bytes;
    for (size_t i = 0; i < got.size(); i++) {
        const OutputComparison c = compare_output(got[i], ref, rules[i], spread);
        if (!c.ok()) {
            if (candidate && strict_float_recheck_applies(o.target)) {
                RunnerOutcome again;
                if (!run_runner(once, environment, run.outputs_dir, rules.size(), again)) return;
                try {
                    PipelineRunner strict(dag, *candidate, o.target);
                    // A program that computes the same bits again, and whose
                    // outputs differ by contraction and reassociation alone.
                    if (identical_outputs(got, again.outputs) &&
                        strict_float_mismatch(strict, dag, o.tolerance, base + measured.output_bytes).empty()) {
                        break;
                    }
                } catch (const std::exception &) {
                    // Not runnable here: the first verdict stands.
                }
            }
            report_wrong(c.detail, c.worst);
            return;
        }
        ref += got[i].size_in_bytes();
        spread += got[i].size_in_bytes();
    }
    if (!run.device.empty()) report_device(run.device);
    report_ok(measured.result.value("min_ms", 0.0), measured.result.value("median_ms", 0.0),
              measured.result.value("runs", (size_t)0), timed);
}

}  // namespace ansor
