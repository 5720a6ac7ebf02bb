#pragma once
// A GPU program chosen where no GPU can time programs (this machine: the CUDA
// toolkit, PoCL, no GPU). The GPU launch model ranks (gpu_launch_model.h);
// the candidates are then
// verified in rank order and the first that passes is applied:
//   CUDA target: built for CUDA, its kernels assembled by ptxas within the
//     GPU's limits (gpu_build.h), then the same schedule built for OpenCL and
//     run on PoCL against the CPU reference (GpuMeasurer with
//     verify_cuda_on_opencl); without an OpenCL device, ptxas alone;
//   OpenCL target: run on the OpenCL device (PoCL) against the reference.
// PoCL's times are a CPU's and never rank GPU programs.
#include "measure/gpu_measurer.h"
#include "state/state.h"

#include <optional>
#include <string>
#include <vector>

namespace ansor {

struct GpuVerifiedChoice {
    std::optional<State> state;  // none when no candidate passed
    size_t rank = 0;             // the chosen candidate's place in the ranking (0: the model's first)
    bool correctness_checked = false;  // ran against the reference (false: ptxas alone)
    std::string device;                // where it ran ("pocl-cpu"), if it ran
    std::vector<std::string> rejected; // "rank N: why" for each candidate that failed
    std::vector<State> rejected_programs;  // those candidates, in the same order
};

// Verifies `ranked` (best first) with `verifier`, `batch` candidates at a
// time, stopping at the first batch holding a passing one.
GpuVerifiedChoice verify_gpu_candidates(GpuMeasurer &verifier, const std::vector<State> &ranked, size_t batch);

}  // namespace ansor
