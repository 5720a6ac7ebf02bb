#pragma once
// The measurer that times a pipeline's candidates, chosen in one place for
// every tool that tunes (the tuning session asks here):
//   * a tool's own measurer (MeasurerSources::supplied), as it comes;
//   * a GPU target: the GpuVerifier's GpuMeasurer where its device is a GPU;
//     elsewhere nothing times GPU programs (MeasurementUnavailable) and the
//     GPU launch model ranks them (search/gpu_choice.h);
//   * a CPU target this machine's CPU cannot run: MeasurementUnavailable
//     (every candidate would die of an illegal instruction);
//   * FreshProcessMeasurer under options.fresh_process (HL_ANSOR_TIMING),
//     unless an extern stage stops it (fresh_process_obstacle);
//   * else ForkMeasurer.
#include "measure/measurer.h"

#include <functional>
#include <memory>
#include <optional>

namespace ansor {

class GpuVerifier;

enum class MeasurerKind { Gpu, FreshProcess, Fork };

const char *measurer_kind_name(MeasurerKind kind);

using MeasurerFactory = std::function<std::unique_ptr<Measurer>(const PipelineDAG &, const MeasureOptions &)>;

struct MeasurerSources {
    MeasurerFactory supplied;  // a tool's own measurer, used as it comes when set
    // GPU targets: the session's verifier, adopted where its device times GPU
    // programs and kept for verification where it does not (null: one of
    // make_measurer's own).
    GpuVerifier *gpu_verifier = nullptr;
    // Say on stderr when fresh-process timing falls back to the forked child.
    bool progress = true;
};

struct MadeMeasurer {
    std::unique_ptr<Measurer> measurer;
    // The all-at-root reference's time; none for a supplied measurer.
    std::optional<double> reference_ms;
};

// Which of the measurers above times `dag`'s candidates under `options`,
// leaving out a supplied one; builds and runs nothing. MeasurementUnavailable
// for a CPU target this machine's CPU cannot run.
MeasurerKind measurer_kind(const PipelineDAG &dag, const MeasureOptions &options);

// Makes that measurer, which runs the reference (MeasurementUnavailable when
// the pipeline cannot be measured here).
MadeMeasurer make_measurer(const PipelineDAG &dag, const MeasureOptions &options, const MeasurerSources &sources);

}  // namespace ansor
