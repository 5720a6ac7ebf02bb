#include "util/gpu_target.h"

#include "util/errors.h"

#include <utility>
#include <vector>

namespace ansor {

const char *gpu_api_name(GpuApi api) { return api == GpuApi::CUDA ? "CUDA" : "OpenCL"; }

std::optional<GpuTargetFacts> gpu_target_facts(const Halide::Target &target) {
    using T = Halide::Target;
    // Device APIs Halide 14 knows that the schedule space does not cover.
    const std::vector<std::pair<T::Feature, const char *>> unsupported = {
        {T::Metal, "metal"},          {T::D3D12Compute, "d3d12compute"}, {T::OpenGLCompute, "openglcompute"},
        {T::HVX, "hvx (Hexagon offload)"}, {T::HexagonDma, "hexagon_dma"},
    };
    for (const auto &f : unsupported) {
        if (target.has_feature(f.first)) {
            throw UserError("target " + target.to_string() + " has the device feature '" + f.second +
                            "'; the Ansor plugin schedules CPU targets and the GPU APIs cuda and opencl only");
        }
    }
    const bool cuda = target.has_feature(T::CUDA), opencl = target.has_feature(T::OpenCL);
    if (cuda && opencl) {
        throw UserError("target " + target.to_string() + " has both 'cuda' and 'opencl'; name one GPU API");
    }
    if (!cuda && !opencl) {
        if (target.has_gpu_feature()) {
            throw UserError("target " + target.to_string() + " has a GPU feature other than cuda and opencl");
        }
        return std::nullopt;
    }
    GpuTargetFacts f;
    if (opencl) {
        f.api = GpuApi::OpenCL;
        f.max_threads_per_block = 256;
        f.max_shared_bytes_per_block = 32 * 1024;
    }
    return f;
}

}  // namespace ansor
