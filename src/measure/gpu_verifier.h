#pragma once
// A GPU target's GpuMeasurer, made on first use and kept, so that its
// reference runs once per session: where a GPU times programs, make_measurer
// adopts it as the session's measurer; where none does, it verifies the
// programs the GPU launch model ranks first (search/gpu_choice.h).
#include "measure/gpu_measurer.h"

#include <memory>
#include <string>

namespace ansor {

class GpuVerifier {
public:
    // Makes nothing yet. Candidates get at least a minute each, more than
    // options.timeout_s may give (see gpu_verifier.cpp).
    GpuVerifier(const PipelineDAG &dag, const MeasureOptions &options);

    // The measurer, made on the first call (it runs the reference and probes
    // the devices); null when it cannot be made here, with why in
    // why_unavailable(), and then never tried again.
    GpuMeasurer *get();
    const std::string &why_unavailable() const { return why_unavailable_; }
    // Hands the measurer over; a later get() makes a new one.
    std::unique_ptr<GpuMeasurer> release() { return std::move(measurer_); }

private:
    const PipelineDAG &dag_;
    MeasureOptions options_;
    std::unique_ptr<GpuMeasurer> measurer_;
    std::string why_unavailable_;
};

}  // namespace ansor
