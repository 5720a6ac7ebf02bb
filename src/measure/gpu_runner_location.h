#pragma once
// Where ansor_gpu_runner is: $HL_ANSOR_GPU_RUNNER if set, else beside the
// binary that holds this code (libansor.so, where the install puts it, as
// the shipped cost model is found: model_file.h), else in this build tree.
#include <string>

namespace ansor {

constexpr const char *kGpuRunnerName = "ansor_gpu_runner";

// The runner's path; a UserError naming every path tried when none exists.
std::string gpu_runner_path();

}  // namespace ansor
