#include "pipeline_library.h"

#include <dlfcn.h>

#include <stdexcept>

namespace ansor::runner {

namespace {

std::string halide_errors;

extern "C" void collect_halide_error(void *, const char *message) {
    if (halide_errors.size() < 4096) halide_errors += message;
}

template<typename T>
T symbol(void *handle, const std::string &path, const std::string &name) {
    void *s = dlsym(handle, name.c_str());
    if (!s) throw std::runtime_error(path + " has no symbol " + name + " (not a Halide AOT pipeline with its runtime?)");
    return reinterpret_cast<T>(s);
}

}  // namespace

std::string take_halide_errors() {
    std::string e = std::move(halide_errors);
    halide_errors.clear();
    while (!e.empty() && (e.back() == '\n' || e.back() == ' ')) e.pop_back();
    return e;
}

PipelineLibrary::PipelineLibrary(const std::string &path, const std::string &function) : path_(path) {
    handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) throw std::runtime_error("cannot load the pipeline library " + path + ": " + dlerror());
    argv_ = symbol<int (*)(void **)>(handle_, path, function + "_argv");
    auto metadata = symbol<const halide_filter_metadata_t *(*)()>(handle_, path, function + "_metadata");
    metadata_ = metadata();
    copy_to_host_ = symbol<int (*)(void *, halide_buffer_t *)>(handle_, path, "halide_copy_to_host");
    device_sync_ = symbol<int (*)(void *, halide_buffer_t *)>(handle_, path, "halide_device_sync");
    device_free_ = symbol<int (*)(void *, halide_buffer_t *)>(handle_, path, "halide_device_free");
    auto set_handler = symbol<void *(*)(void (*)(void *, const char *))>(handle_, path, "halide_set_error_handler");
    set_handler(collect_halide_error);
    preload_driver(metadata_->target);
}

void PipelineLibrary::preload_driver(const std::string &target) {
    // Halide's runtime looks a driver's symbols up in the process first and
    // only then dlopens the unversioned name (libcuda.so, libOpenCL.so),
    // which a machine with only the driver (no development package) lacks.
    auto has = [&](const char *feature) { return ("-" + target + "-").find(std::string("-") + feature + "-") != std::string::npos; };
    if (has("cuda")) dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (has("opencl")) dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_GLOBAL);
}

void PipelineLibrary::fail(const std::string &what, int code) const {
    std::string errors = take_halide_errors();
    throw std::runtime_error(what + " failed with Halide error " + std::to_string(code) +
                             (errors.empty() ? "" : ": " + errors));
}

void PipelineLibrary::call(void **argv) const {
    if (int e = argv_(argv)) fail(std::string("the pipeline ") + metadata_->name, e);
}

void PipelineLibrary::copy_to_host(halide_buffer_t *buffer) const {
    if (int e = copy_to_host_(nullptr, buffer)) fail("halide_copy_to_host", e);
}

void PipelineLibrary::sync(halide_buffer_t *buffer) const {
    if (!buffer->device_interface) return;  // computed on the host: nothing queued (and the runtime would refuse)
    if (int e = device_sync_(nullptr, buffer)) fail("halide_device_sync", e);
}

void PipelineLibrary::release_device(halide_buffer_t *buffer) const {
    if (buffer->device) device_free_(nullptr, buffer);
}

}  // namespace ansor::runner
