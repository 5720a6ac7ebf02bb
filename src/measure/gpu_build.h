#pragma once
// Builds a GPU-scheduled Halide pipeline for ansor_runner and checks it
// statically (docs/gpu.md, "Measuring and verifying GPU programs"):
//
//  1. AOT-compiles the pipeline for the GPU target into a static library in
//     a directory (the Halide runtime is inside it) and links that, whole,
//     into a shared object the runner can dlopen: `cc -shared
//     -Wl,--whole-archive lib.a -Wl,--no-whole-archive -ldl -lpthread`.
//  2. Reads each kernel launch from the compiled host code (the calls to
//     halide_<api>_run): kernel name, threads per block, dynamic shared memory.
//  3. For CUDA: takes the PTX from the compiled module (the
//     "<api>_gpu_source_kernels" buffer) and assembles it with
//     `ptxas -arch=sm_XY -v` (XY from the target's cuda_capability_XY),
//     which reports per kernel its registers, static shared memory, stack
//     and spills.
//  4. Rejects a program over the limits below, naming the kernel and numbers.
#include "util/errors.h"

#include <Halide.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ansor {

// What a kernel may use; the only place these numbers live. Sources: the
// CUDA C++ Programming Guide, "Compute Capabilities", technical
// specifications, identical for compute capability 5.0 to 9.0.
struct GpuLimits {
    int64_t max_threads_per_block = 1024;
    // 64K 32-bit registers per block (and per SM); registers are given to
    // whole warps, so threads are rounded up to a multiple of 32.
    int64_t max_registers_per_block = 65536;
    int64_t max_registers_per_thread = 255;
    // Static plus dynamic shared memory per block. 48 KiB is the most a block
    // gets without the opt-in (cudaFuncAttributeMaxDynamicSharedMemorySize),
    // which Halide's CUDA runtime does not make.
    int64_t max_shared_bytes_per_block = 48 * 1024;
    // Spill stores per thread (ptxas -v). Not a hardware limit: a few spilled
    // values cost little, but a kernel storing more than 128 bytes per thread
    // to local memory (32 registers' worth: typically an unrolled register
    // tile that does not fit) runs at local memory's speed; it is rejected
    // rather than measured.
    int64_t max_spill_store_bytes = 128;
    int64_t warp_size = 32;
};

// One kernel launch in the compiled host code. A number the pipeline's
// sizes decide at run time is -1 (then it is not checked here; the launch
// fails at run time if it is too large).
struct KernelLaunch {
    std::string kernel;
    std::vector<int64_t> thread_extents;  // x, y, z
    int64_t threads = -1;                 // their product
    int64_t dynamic_shared_bytes = -1;    // Halide puts GPU shared allocations here
};

// One kernel as ptxas -v reports it.
struct KernelResources {
    std::string kernel;
    int64_t registers = 0;
    int64_t static_shared_bytes = 0;
    int64_t stack_bytes = 0;
    int64_t spill_store_bytes = 0;
    int64_t spill_load_bytes = 0;
};

struct GpuBuild {
    std::string dir;             // where the files are
    std::string function;        // the pipeline's C name: <function>_argv, <function>_metadata
    std::string static_library;  // <dir>/<function>.a
    std::string shared_object;   // <dir>/<function>.so, for ansor_runner
    std::vector<KernelLaunch> launches;
    std::string device_code;               // PTX (CUDA) or OpenCL C
    std::vector<KernelResources> kernels;  // CUDA: from ptxas; empty otherwise
};

// A program that builds but breaks a GPU limit (or that ptxas refuses): a
// failure of that candidate, not of the measurement.
class GpuProgramRejected : public UserError {
public:
    explicit GpuProgramRejected(const std::string &why) : UserError(why) {}
};

// Steps 1-4. `target` must have a GPU API (UserError otherwise). Throws
// GpuProgramRejected for a program over the limits, UserError when the link
// or ptxas cannot run (ptxas absent), Halide's errors as they come.
GpuBuild build_gpu_program(const Halide::Pipeline &pipeline, const Halide::Target &target, const std::string &dir,
                           const std::string &function = "candidate", const GpuLimits &limits = {});

// ptxas: $PTXAS, else /usr/local/cuda/bin/ptxas, else ptxas on PATH;
// UserError naming the places tried when none exists.
std::string find_ptxas();

// The sm_XY ptxas assembles for: the target's cuda_capability_XY (at least
// 50, the oldest that current ptxas accepts; PTX for an older target
// assembles for it unchanged).
int cuda_architecture(const Halide::Target &target);

// Runs ptxas -v on `ptx` (written to dir/kernels.ptx). GpuProgramRejected
// with ptxas's message if it refuses the code.
std::vector<KernelResources> assemble_ptx(const std::string &ptx, int architecture, const std::string &dir);

// ptxas -v's report, per kernel.
std::vector<KernelResources> parse_ptxas_report(const std::string &report);

// "" when every kernel is within `limits`, else one line per broken limit,
// e.g. "kernel _kernel_f_s0_v1_v3___block_id_y: 2048 threads per block
// (64 x 32 x 1) > 1024".
std::string gpu_limit_violations(const std::vector<KernelLaunch> &launches,
                                 const std::vector<KernelResources> &kernels, const GpuLimits &limits = {});

}  // namespace ansor
