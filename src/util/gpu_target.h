#pragma once
// The facts about a GPU target that the GPU schedule space is built from:
// which API Halide generates for, and the per-block limits every GPU program
// must respect. One place, so the sketch rules, the annotator and the checks
// read the same numbers.
//
// Sources of the numbers:
//  * CUDA, compute capability 8.0 (A100): NVIDIA CUDA C++ Programming Guide,
//    "Compute Capabilities", table "Technical Specifications per Compute
//    Capability": 1024 threads per block, warp size 32, 48 KiB of statically
//    allocated shared memory per block (more needs a dynamic allocation and an
//    opt-in attribute, which Halide 14 does not emit), 65536 32-bit registers
//    per block (and per SM), at most 255 registers per thread.
//  * OpenCL: the API guarantees little. CL_DEVICE_MAX_WORK_GROUP_SIZE has no
//    minimum in the OpenCL spec, and it is 256 on many devices (AMD GCN,
//    ARM Mali, PoCL's CPU device defaults to 4096 but other PoCL drivers
//    report 256), so 256 work-items per group is the portable choice;
//    CL_DEVICE_LOCAL_MEM_SIZE is at least 32 KiB for a full-profile device
//    (OpenCL 1.2 spec, table 4.3), so 32 KiB. Warp (sub-group) size and the
//    register file are not exposed by OpenCL 1.2; the NVIDIA figures (32,
//    255 / 65536) are used as the tile-shape bias and register bound, since
//    they are also conservative for AMD (64-wide wavefronts, 256 VGPRs).
#include <Halide.h>

#include <cstdint>
#include <optional>
#include <string>

namespace ansor {

enum class GpuApi { CUDA, OpenCL };

struct GpuTargetFacts {
    GpuApi api = GpuApi::CUDA;
    int max_threads_per_block = 1024;
    int64_t max_shared_bytes_per_block = 48 * 1024;
    int warp_size = 32;
    int max_registers_per_thread = 255;
    int max_registers_per_block = 65536;
    // Largest register tile a thread accumulates (vthread x inner elements
    // over all space dims): Ansor's bound on the innermost tiles, well under
    // the 255 registers a thread may use.
    int max_register_tile = 64;
};

// The GPU facts of `target`, or nullopt for a CPU target. Throws UserError
// naming the feature for a GPU (or offload) feature other than CUDA and
// OpenCL (Metal, D3D12Compute, OpenGLCompute, Hexagon offload), and for a
// target with both CUDA and OpenCL.
std::optional<GpuTargetFacts> gpu_target_facts(const Halide::Target &target);

const char *gpu_api_name(GpuApi api);

}  // namespace ansor
