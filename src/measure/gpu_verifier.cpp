#include "measure/gpu_verifier.h"

#include <algorithm>

namespace ansor {

namespace {

// A GPU candidate compiles twice where no GPU runs it (for the target and
// for its OpenCL twin), and PoCL compiles its kernels again on the first
// run: the limit that catches a hung CPU compile is too tight for that.
constexpr double kGpuVerifyMinTimeout_s = 60;

}  // namespace

GpuVerifier::GpuVerifier(const PipelineDAG &dag, const MeasureOptions &options) : dag_(dag), options_(options) {
    options_.timeout_s = std::max(options_.timeout_s, kGpuVerifyMinTimeout_s);
}

GpuMeasurer *GpuVerifier::get() {
    if (measurer_ || !why_unavailable_.empty()) return measurer_.get();
    GpuMeasureSettings settings;
    settings.verify_cuda_on_opencl = true;  // only where no CUDA device is found
    try {
        measurer_ = std::make_unique<GpuMeasurer>(dag_, options_, settings);
    } catch (const MeasurementUnavailable &e) {
        why_unavailable_ = e.what();
    }
    return measurer_.get();
}

}  // namespace ansor
