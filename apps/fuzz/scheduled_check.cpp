#include "scheduled_check.h"

#include "dag/pipeline_dag.h"
#include "measure/output_check.h"
#include "measure/pipeline_runner.h"
#include "measure/strict_float_check.h"
#include "util/target.h"

#include <exception>

namespace ansor_fuzz {

namespace {

std::vector<Halide::Internal::Function> functions_of(const std::vector<Halide::Func> &outputs) {
    std::vector<Halide::Internal::Function> out;
    for (const Halide::Func &f : outputs) out.push_back(f.function());
    return out;
}

// The buffers' bytes, concatenated in order (the measurer's shared layout).
std::vector<char> concatenated(const std::vector<Halide::Buffer<>> &buffers) {
    std::vector<char> out;
    for (const Halide::Buffer<> &b : buffers) {
        const char *data = reinterpret_cast<const char *>(b.data());
        out.insert(out.end(), data, data + b.size_in_bytes());
    }
    return out;
}

}  // namespace

Reference reference_outputs(const PipelineBuilder &build, const Halide::Target &target, int parallelism) {
    const std::vector<Halide::Func> outputs = build();
    ansor::PipelineDAG dag(functions_of(outputs), parallelism);
    ansor::PipelineRunner reference(dag, nullptr, ansor::measurement_target(target));
    reference.compile();
    reference.run();
    Reference out;
    out.spread = ansor::rounding_spread(reference);
    for (const Halide::Buffer<> &b : reference.outputs()) out.outputs.push_back(b.copy());
    return out;
}

std::string check_scheduled(const PipelineBuilder &build, const std::string &scheduler, const Halide::Target &target,
                            int parallelism, double tolerance, const Reference &reference) {
    const Halide::Target jit = ansor::measurement_target(target);
    // A build of its own: the reference's Funcs stay unscheduled whatever the scheduler does.
    const std::vector<Halide::Func> outputs = build();
    // The DAG reads the algorithm and estimates, so it is built before scheduling.
    ansor::PipelineDAG dag(functions_of(outputs), parallelism);
    Halide::Pipeline pipeline(outputs);
    Halide::MachineParams machine(parallelism, 32 * 1024 * 1024, 40);
    pipeline.auto_schedule(scheduler, jit, machine);
    ansor::PipelineRunner runner(dag, pipeline, jit);
    runner.compile();
    runner.run();
    if (runner.outputs().size() != reference.outputs.size()) return "error: the scheduled pipeline has other outputs";
    const ansor::OutputComparison c =
        ansor::compare_outputs(dag, runner.outputs(), reference.outputs, tolerance, reference.spread);
    if (c.ok()) return "";
    if (ansor::strict_float_recheck_applies(jit)) {
        std::vector<Halide::Buffer<>> first;
        for (const Halide::Buffer<> &b : runner.outputs()) first.push_back(b.copy());
        runner.run();
        const std::vector<char> spread = concatenated(reference.spread);
        // The same bits again, and outputs that differ by contraction and
        // reassociation alone. The strict_float reference is built afresh:
        // scheduling changed the Funcs `dag` was built from.
        if (ansor::identical_outputs(first, runner.outputs())) {
            const ansor::PipelineDAG reference_dag(functions_of(build()), parallelism);
            if (ansor::strict_float_mismatch(runner, reference_dag, tolerance, spread.data()).empty()) return "";
        }
    }
    return "wrong output: " + c.detail;
}

}  // namespace ansor_fuzz
