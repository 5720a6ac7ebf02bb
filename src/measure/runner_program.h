#pragma once
// A pipeline built ahead of time into a shared object that ansor_runner
// loads and runs in a process of its own, and the measurement of one such
// program: run on the reference's inputs, outputs checked against the
// reference, the result line of measure_child.h's protocol. GpuMeasurer and
// FreshProcessMeasurer measure this way.
#include <Halide.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ansor {

class PipelineDAG;
struct MeasureOptions;

struct RunnerProgram {
    std::string function;        // the pipeline's C name: <function>_argv, <function>_metadata
    std::string static_library;  // <dir>/<function>.a (the Halide runtime inside)
    std::string shared_object;   // <dir>/<function>.so, for ansor_runner
};

// The file names of `function`'s build in `dir`.
RunnerProgram runner_program_files(const std::string &dir, const std::string &function);

// Links the static library, whole, into the shared object:
// `cc -shared -Wl,--whole-archive lib.a -Wl,--no-whole-archive -ldl -lpthread -lm`
// ($CC if set). UserError with the linker's message if it fails.
void link_shared_object(const RunnerProgram &program);

// AOT-compiles `pipeline` for `target` (a CPU target) and links it.
RunnerProgram build_cpu_runner_program(const Halide::Pipeline &pipeline, const Halide::Target &target,
                                       const std::string &dir, const std::string &function = "candidate");

// A process's output, its last n characters without trailing blanks.
std::string output_tail(const std::string &text, size_t n = 1200);

// The last line of JSON in a runner's output, or a null json.
nlohmann::json last_json_line(const std::string &output);

// Removes the candidate-* directories under `work_dir` that children killed
// before their own cleanup (a hang, a crash, the memory limit) left behind.
void remove_candidate_dirs(const std::string &work_dir);

// What ansor_runner is asked to do for one measurement.
struct RunnerRun {
    std::string runner;             // its path
    std::vector<std::string> env;   // extra environment (the OpenCL device type)
    std::string inputs;             // the reference's inputs.json
    std::string outputs_dir;        // where it writes the outputs
    std::string device;             // MeasureResult::device of the time ("" for a CPU time)
    // Time as RunGen does (--sample-seconds: the options' measure_seconds)
    // when that is positive, else the options' repeats back to back.
    bool sampled = false;
};

// In a measuring child: runs `program` as `run` says with the options'
// threads and timing, checks its outputs against `reference` (ForkMeasurer's
// shared reference: the DAG's outputs in order, then their rounding spread
// and the strict_float outputs in the same layout; output_check.h's rules)
// and prints the result line (report_ok, report_wrong) or an error line.
// Outputs that fail the check are looked at again with strict_float
// (strict_float_check.h) where `candidate`, the program's pipeline, is given.
void run_and_check_runner_program(const PipelineDAG &dag, const MeasureOptions &options,
                                  const RunnerProgram &program, const RunnerRun &run, const void *reference,
                                  const Halide::Pipeline *candidate = nullptr);

}  // namespace ansor
