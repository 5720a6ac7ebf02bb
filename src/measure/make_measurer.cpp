#include "measure/make_measurer.h"

#include "measure/fresh_process_measurer.h"
#include "measure/gpu_verifier.h"
#include "util/gpu_target.h"
#include "util/target.h"

#include <cstdio>

namespace ansor {

namespace {

// Whether the device of a GpuMeasurer is a GPU, not PoCL or another CPU
// OpenCL device, and not a CUDA target left unrun.
bool times_gpu_programs(const GpuMeasurer &measurer) {
    const std::string &d = measurer.run_device();
    return d.rfind("cuda-gpu", 0) == 0 || d.rfind("opencl-gpu", 0) == 0;
}

MadeMeasurer adopt_gpu_measurer(const PipelineDAG &dag, const MeasureOptions &options, GpuVerifier *shared) {
    GpuVerifier own(dag, options);
    GpuVerifier &verifier = shared ? *shared : own;
    GpuMeasurer *gpu = verifier.get();
    if (!gpu) throw MeasurementUnavailable(verifier.why_unavailable());
    if (!times_gpu_programs(*gpu)) {
        throw MeasurementUnavailable(
            "no GPU here to time " + options.target.to_string() + " programs on (" +
            (gpu->run_device().empty() ? gpu->no_device_reason() : "programs run on " + gpu->run_device()) +
            "): the GPU launch model ranks them, and the chosen one is verified before it is applied");
    }
    const double reference_ms = gpu->reference().min_ms;
    return {verifier.release(), reference_ms};
}

}  // namespace

const char *measurer_kind_name(MeasurerKind kind) {
    switch (kind) {
    case MeasurerKind::Gpu: return "gpu";
    case MeasurerKind::FreshProcess: return "fresh-process";
    case MeasurerKind::Fork: return "fork";
    }
    return "?";
}

MeasurerKind measurer_kind(const PipelineDAG &dag, const MeasureOptions &options) {
    // CPU, CUDA or OpenCL; any other device API is a UserError naming it.
    if (gpu_target_facts(options.target)) return MeasurerKind::Gpu;
    // Built for another CPU (cross-compiling, or a target wider than this one).
    if (const std::string why = why_this_cpu_cannot_run(options.target); !why.empty()) {
        throw MeasurementUnavailable(why);
    }
    if (options.fresh_process && fresh_process_obstacle(dag).empty()) return MeasurerKind::FreshProcess;
    return MeasurerKind::Fork;
}

MadeMeasurer make_measurer(const PipelineDAG &dag, const MeasureOptions &options, const MeasurerSources &sources) {
    if (sources.supplied) return {sources.supplied(dag, options), std::nullopt};
    switch (measurer_kind(dag, options)) {
    case MeasurerKind::Gpu: return adopt_gpu_measurer(dag, options, sources.gpu_verifier);
    case MeasurerKind::FreshProcess: {
        auto fresh = std::make_unique<FreshProcessMeasurer>(dag, options);
        const double reference_ms = fresh->reference().min_ms;
        return {std::move(fresh), reference_ms};
    }
    case MeasurerKind::Fork: break;
    }
    if (options.fresh_process && sources.progress) {
        std::fprintf(stderr, "[ansor] candidates are timed in the tuner's forked child, not in a fresh process: %s\n",
                     fresh_process_obstacle(dag).c_str());
    }
    auto fork = std::make_unique<ForkMeasurer>(dag, options);
    const double reference_ms = fork->reference().min_ms;
    return {std::move(fork), reference_ms};
}

}  // namespace ansor
