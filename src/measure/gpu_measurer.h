#pragma once
// GpuMeasurer: measures GPU-scheduled programs without loading a GPU runtime
// into the tuner (docs/gpu.md, "Measuring and verifying GPU programs").
//
//  * The reference is ForkMeasurer's (every Func at root, JIT, in a sandboxed
//    child) on the target's CPU part (without_gpu_features); that child also
//    writes the inputs it ran on to a temporary directory, once.
//  * Each candidate is built in a sandboxed child of ForkMeasurer's batch
//    machinery (builders, deadlines, sandbox.h): gpu_build.h compiles it
//    ahead of time into a shared object and, for CUDA, checks its kernels
//    with ptxas against GpuLimits. Then ansor_runner, a separate
//    executable without Halide, runs it on the reference's inputs (a
//    candidate reading an input beyond them is rejected: input_reads.h), and the
//    outputs are checked against the reference by output_check.h's rules.
//  * Devices: a CUDA target runs when `ansor_runner --probe cuda` finds a
//    device; without one a candidate that builds and passes ptxas comes back
//    with not_run set and error "not run: no CUDA device ..." (no failure,
//    no time). With `verify_cuda_on_opencl`, such a candidate is also built
//    with the same schedule for opencl_twin(target) and run on the OpenCL
//    device (PoCL): correct or not, timed on a CPU. An OpenCL target runs on
//    whatever OpenCL device exists (a GPU if there is one, else a CPU with
//    HL_OCL_DEVICE_TYPE=cpu).
//  * MeasureResult::device says where a time was taken: "pocl-cpu" (PoCL) or
//    "opencl-cpu: <name>" are CPU times, never GPU performance;
//    "opencl-gpu: <name>" and "cuda-gpu: <name>" are the GPU's.
#include "measure/runner_measurer.h"

#include <memory>
#include <string>
#include <vector>

namespace ansor {

struct GpuMeasureSettings {
    // CUDA target, no CUDA device: run the same schedule built for OpenCL on
    // the OpenCL device (PoCL) to prove it correct (its time is a CPU's).
    bool verify_cuda_on_opencl = false;
};

class GpuMeasurer : public RunnerMeasurer {
public:
    // options.target must have a GPU API (UserError otherwise). Runs the
    // reference on the target's CPU part (MeasurementUnavailable as
    // ForkMeasurer throws it), finds the runner (runner_location.h) and
    // probes the device.
    GpuMeasurer(const PipelineDAG &dag, MeasureOptions options, GpuMeasureSettings settings = {});

    // Whether candidates run (a device exists for the target, or for its
    // OpenCL twin under verify_cuda_on_opencl).
    bool runs_programs() const { return !run_device_.empty(); }
    // The device candidates run on ("pocl-cpu", "cuda-gpu: NVIDIA H100 ...",
    // ...), or "" with the reason in no_device_reason().
    const std::string &run_device() const { return run_device_; }
    const std::string &no_device_reason() const { return no_device_reason_; }

private:
    // Build, check (ptxas for CUDA), run on the device, compare, report.
    void build_and_run(const Halide::Pipeline &pipeline, const std::string &dir, int control_fd) const override;
    void probe_devices();

    GpuMeasureSettings settings_;
    Halide::Target run_target_;  // what candidates are run as: the target, or its OpenCL twin
    std::string run_device_, no_device_reason_;
    std::vector<std::string> runner_env_;
};

// CUDA schedules proven correct without a GPU: each State (or hand-scheduled
// pipeline) is built for the CUDA target and checked with ptxas, then built
// with the same directives for opencl_twin(options.target) and run on PoCL
// against the reference. ok means both passed; the time is PoCL's
// (device "pocl-cpu"), a CPU's. On a machine with a CUDA device the CUDA
// build itself runs instead (device "cuda-gpu: <name>").
std::vector<MeasureResult> verify_cuda_schedules_on_opencl(const PipelineDAG &dag, const MeasureOptions &options,
                                                           const std::vector<State> &states);
std::vector<MeasureResult> verify_cuda_pipelines_on_opencl(const PipelineDAG &dag, const MeasureOptions &options,
                                                           const std::vector<Halide::Pipeline> &pipelines);

}  // namespace ansor
