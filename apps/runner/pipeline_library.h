#pragma once
// A shared object built from a Halide AOT pipeline with its runtime
// (gpu_build.h makes them): the pipeline's argv entry point and metadata,
// and the runtime functions the runner calls.
#include <HalideRuntime.h>

#include <string>
#include <vector>

namespace ansor::runner {

class PipelineLibrary {
public:
    // Throws std::runtime_error naming the file and the missing symbol.
    PipelineLibrary(const std::string &path, const std::string &function);
    const halide_filter_metadata_t &metadata() const { return *metadata_; }
    // Calls the pipeline; throws with Halide's error text on a non-zero result.
    void call(void **argv) const;
    // halide_copy_to_host on `buffer`; throws on failure.
    void copy_to_host(halide_buffer_t *buffer) const;
    // Waits for the device's queued work (halide_device_sync).
    void sync(halide_buffer_t *buffer) const;
    void release_device(halide_buffer_t *buffer) const;

private:
    [[noreturn]] void fail(const std::string &what, int code) const;
    static void preload_driver(const std::string &target);
    std::string path_;
    void *handle_ = nullptr;
    int (*argv_)(void **) = nullptr;
    const halide_filter_metadata_t *metadata_ = nullptr;
    int (*copy_to_host_)(void *, halide_buffer_t *) = nullptr;
    int (*device_sync_)(void *, halide_buffer_t *) = nullptr;
    int (*device_free_)(void *, halide_buffer_t *) = nullptr;
};

// Halide's error messages reported since the last call (the runner installs
// an error handler in the library's runtime).
std::string take_halide_errors();

}  // namespace ansor::runner
