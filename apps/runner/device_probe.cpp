#include "device_probe.h"

#include <nlohmann/json.hpp>

#include <dlfcn.h>

#include <cstdint>

namespace ansor::runner {

namespace {

std::string dl_error() {
    const char *e = dlerror();
    return e ? e : "unknown dlopen error";
}

// The driver's own entry points, declared here as the driver API defines them.
using CuInit = int (*)(unsigned);
using CuDeviceGetCount = int (*)(int *);
using CuDeviceGet = int (*)(int *, int);
using CuDeviceGetName = int (*)(char *, int, int);

using ClGetPlatformIDs = int32_t (*)(uint32_t, void **, uint32_t *);
using ClGetPlatformInfo = int32_t (*)(void *, uint32_t, size_t, void *, size_t *);
using ClGetDeviceIDs = int32_t (*)(void *, uint64_t, uint32_t, void **, uint32_t *);
using ClGetDeviceInfo = int32_t (*)(void *, uint32_t, size_t, void *, size_t *);

constexpr uint32_t kClPlatformName = 0x0902;
constexpr uint64_t kClDeviceTypeAll = 0xFFFFFFFF;
constexpr uint32_t kClDeviceType = 0x1000;
constexpr uint32_t kClDeviceName = 0x102B;
constexpr uint64_t kClTypeCpu = 1 << 1, kClTypeGpu = 1 << 2, kClTypeAccelerator = 1 << 3;

std::string cl_string(ClGetPlatformInfo info, void *object, uint32_t what) {
    char buf[256] = {0};
    if (info(object, what, sizeof(buf) - 1, buf, nullptr) != 0) return "?";
    return buf;
}

}  // namespace

ProbeResult probe_cuda() {
    ProbeResult r;
    r.api = "cuda";
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        r.reason = "no CUDA driver: libcuda.so.1 cannot be loaded (" + dl_error() + ")";
        return r;
    }
    auto init = (CuInit)dlsym(lib, "cuInit");
    auto count = (CuDeviceGetCount)dlsym(lib, "cuDeviceGetCount");
    auto get = (CuDeviceGet)dlsym(lib, "cuDeviceGet");
    auto name = (CuDeviceGetName)dlsym(lib, "cuDeviceGetName");
    if (!init || !count) {
        r.reason = "libcuda.so.1 lacks cuInit or cuDeviceGetCount";
        return r;
    }
    if (int e = init(0); e != 0) {
        r.reason = "cuInit failed with CUDA error " + std::to_string(e) + " (100: no device)";
        return r;
    }
    int n = 0;
    if (int e = count(&n); e != 0 || n == 0) {
        r.reason = e ? "cuDeviceGetCount failed with CUDA error " + std::to_string(e) : "the CUDA driver sees no device";
        return r;
    }
    for (int i = 0; i < n; i++) {
        ProbedDevice d{"?", "gpu", "cuda"};
        int device = 0;
        char buf[256] = {0};
        if (get && name && get(&device, i) == 0 && name(buf, sizeof(buf) - 1, device) == 0) d.name = buf;
        r.devices.push_back(d);
    }
    r.usable = true;
    return r;
}

ProbeResult probe_opencl() {
    ProbeResult r;
    r.api = "opencl";
    void *lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) lib = dlopen("libOpenCL.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        r.reason = "no OpenCL ICD loader: libOpenCL.so.1 cannot be loaded (" + dl_error() + ")";
        return r;
    }
    auto platforms = (ClGetPlatformIDs)dlsym(lib, "clGetPlatformIDs");
    auto platform_info = (ClGetPlatformInfo)dlsym(lib, "clGetPlatformInfo");
    auto devices = (ClGetDeviceIDs)dlsym(lib, "clGetDeviceIDs");
    auto device_info = (ClGetDeviceInfo)dlsym(lib, "clGetDeviceInfo");
    if (!platforms || !platform_info || !devices || !device_info) {
        r.reason = "libOpenCL.so.1 lacks clGetPlatformIDs, clGetPlatformInfo, clGetDeviceIDs or clGetDeviceInfo";
        return r;
    }
    uint32_t np = 0;
    if (platforms(0, nullptr, &np) != 0 || np == 0) {
        r.reason = "no OpenCL platform is installed (no ICD in /etc/OpenCL/vendors)";
        return r;
    }
    std::vector<void *> ids(np);
    platforms(np, ids.data(), nullptr);
    for (void *p : ids) {
        const std::string platform = cl_string(platform_info, p, kClPlatformName);
        uint32_t nd = 0;
        if (devices(p, kClDeviceTypeAll, 0, nullptr, &nd) != 0 || nd == 0) continue;
        std::vector<void *> ds(nd);
        devices(p, kClDeviceTypeAll, nd, ds.data(), nullptr);
        for (void *d : ds) {
            uint64_t type = 0;
            device_info(d, kClDeviceType, sizeof(type), &type, nullptr);
            const char *kind = (type & kClTypeGpu) ? "gpu" : (type & kClTypeCpu) ? "cpu"
                               : (type & kClTypeAccelerator) ? "accelerator" : "other";
            r.devices.push_back({cl_string(device_info, d, kClDeviceName), kind, platform});
        }
    }
    r.usable = !r.devices.empty();
    if (!r.usable) r.reason = "the OpenCL platforms list no device";
    return r;
}

std::string probe_json(const ProbeResult &r) {
    nlohmann::json j = {{"api", r.api}, {"usable", r.usable}, {"devices", nlohmann::json::array()}};
    if (!r.usable) j["reason"] = r.reason;
    for (const ProbedDevice &d : r.devices) {
        j["devices"].push_back({{"name", d.name}, {"type", d.type}, {"platform", d.platform}});
    }
    return j.dump();
}

}  // namespace ansor::runner
