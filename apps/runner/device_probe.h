#pragma once
// Whether a GPU API has a usable device, asked of the driver itself (no
// Halide involved): CUDA through libcuda.so.1 (cuInit, cuDeviceGetCount),
// OpenCL through the ICD loader libOpenCL.so.1 (clGetPlatformIDs,
// clGetDeviceIDs).
#include <string>
#include <vector>

namespace ansor::runner {

struct ProbedDevice {
    std::string name;
    std::string type;      // "gpu", "cpu", "accelerator", "other"
    std::string platform;  // OpenCL: the platform's name ("Portable Computing Language" is PoCL)
};

struct ProbeResult {
    std::string api;  // "cuda" or "opencl"
    bool usable = false;
    std::string reason;  // why not, when not usable
    std::vector<ProbedDevice> devices;
};

ProbeResult probe_cuda();
ProbeResult probe_opencl();

// One line of JSON: {"api": ..., "usable": ..., "reason": ..., "devices": [...]}.
std::string probe_json(const ProbeResult &r);

}  // namespace ansor::runner
