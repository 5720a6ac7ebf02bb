#include "measure/fresh_process_measurer.h"

#include "measure/input_reads.h"
#include "measure/measure_child.h"
#include "measure/runner_program.h"
#include "util/errors.h"

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

namespace {

MeasureOptions cpu_options(const PipelineDAG &dag, MeasureOptions options) {
    if (options.target.has_gpu_feature()) {
        throw UserError("timing in a fresh process is for CPU targets; " + options.target.to_string() +
                        " has a GPU API (GPU programs are always run by ansor_runner)");
    }
    const std::string obstacle = fresh_process_obstacle(dag);
    if (!obstacle.empty()) throw UserError("cannot time candidates in a fresh process: " + obstacle);
    return options;
}

}  // namespace

FreshProcessMeasurer::FreshProcessMeasurer(const PipelineDAG &dag, MeasureOptions options)
    : RunnerMeasurer(dag, cpu_options(dag, options), options, "ansor-fresh") {}

void FreshProcessMeasurer::build_and_run(const Halide::Pipeline &pipeline, const std::string &dir,
                                         int control_fd) const {
    const RunnerProgram program = build_cpu_runner_program(pipeline, options_.target, dir);
    require_reads_within_reference(dag_, reference_inputs(), runner(), program.shared_object, program.function);
    report_compiled();
    if (wait_for_go(control_fd)) {
        const RunnerRun run{runner(), {}, reference_inputs(), dir, "", true};
        run_and_check_runner_program(dag_, options_, program, run, reference_outputs(), &pipeline);
    }
}

}  // namespace ansor
