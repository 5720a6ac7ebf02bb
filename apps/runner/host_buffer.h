#pragma once
// A dense host buffer as a halide_buffer_t (dimension 0 innermost), owning
// its 128-byte-aligned memory, for the runner's arguments.
#include "measure/runner_files.h"

#include <HalideRuntime.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace ansor::runner {

class HostBuffer {
public:
    explicit HostBuffer(const RunnerBuffer &shape);
    halide_buffer_t *raw() { return &buffer_; }
    void *host() { return buffer_.host; }
    size_t bytes() const { return shape_.bytes(); }
    const RunnerBuffer &shape() const { return shape_; }
    // The host holds data the device has not seen (an input).
    void mark_host_dirty() { buffer_.flags |= halide_buffer_flag_host_dirty; }
    // Reproducible values from `seed` and the element's index: floats in
    // [-1, 1), integers in [0, 64) (small enough that no product overflows).
    void fill_random(uint64_t seed);
    // Turns the buffer into a bounds query: no host memory, the shape as
    // given; the pipeline replaces the shape by the region it reads.
    void make_query();
    std::vector<int64_t> queried_min() const;
    std::vector<int64_t> queried_extent() const;

private:
    RunnerBuffer shape_;
    std::vector<halide_dimension_t> dims_;
    std::unique_ptr<uint8_t, void (*)(void *)> memory_;
    halide_buffer_t buffer_{};
};

}  // namespace ansor::runner
