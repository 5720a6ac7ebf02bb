#include "host_buffer.h"
#include "util/splitmix.h"

#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace ansor::runner {

namespace {

uint64_t mix(uint64_t x) { return ansor::splitmix64(x); }

// float16 bits for a float in [-1, 1) (no rounding subtleties needed for test data).
uint16_t to_half_bits(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    const uint32_t sign = (b >> 16) & 0x8000;
    const int exp = (int)((b >> 23) & 0xff) - 127 + 15;
    if (exp <= 0) return (uint16_t)sign;
    return (uint16_t)(sign | (exp << 10) | ((b >> 13) & 0x3ff));
}

}  // namespace

HostBuffer::HostBuffer(const RunnerBuffer &shape) : shape_(shape), memory_(nullptr, std::free) {
    if (shape.type.bits == 0) throw std::runtime_error("buffer '" + shape.name + "' has no type");
    const size_t bytes = std::max<size_t>(shape.bytes(), 1);
    memory_.reset(static_cast<uint8_t *>(std::aligned_alloc(128, (bytes + 127) / 128 * 128)));
    if (!memory_) throw std::runtime_error("cannot allocate " + std::to_string(bytes) + " bytes for " + shape.name);
    std::memset(memory_.get(), 0, bytes);
    int64_t stride = 1;
    for (size_t d = 0; d < shape.extent.size(); d++) {
        dims_.push_back(halide_dimension_t((int32_t)shape.min[d], (int32_t)shape.extent[d], (int32_t)stride));
        stride *= shape.extent[d];
    }
    buffer_.host = memory_.get();
    buffer_.type = shape.type;
    buffer_.dimensions = (int32_t)dims_.size();
    buffer_.dim = dims_.data();
}

void HostBuffer::make_query() {
    // The shape stays: a pipeline whose reduction domains span an input's
    // extent (a scan over input.height()) must see the extent a real call
    // passes, or the region it reports is that of an empty scan.
    buffer_.host = nullptr;
}

std::vector<int64_t> HostBuffer::queried_min() const {
    std::vector<int64_t> v;
    for (const halide_dimension_t &d : dims_) v.push_back(d.min);
    return v;
}

std::vector<int64_t> HostBuffer::queried_extent() const {
    std::vector<int64_t> v;
    for (const halide_dimension_t &d : dims_) v.push_back(d.extent);
    return v;
}

void HostBuffer::fill_random(uint64_t seed) {
    const halide_type_t t = shape_.type;
    const size_t n = shape_.elements();
    uint8_t *p = memory_.get();
    for (size_t i = 0; i < n; i++) {
        const uint64_t r = mix(seed * 0x100000001b3ull + i);
        const float unit = (float)((r >> 11) * 0x1.0p-53) * 2 - 1;
        const uint64_t small = r % 64;
        if (t.code == halide_type_float && t.bits == 32) {
            std::memcpy(p + 4 * i, &unit, 4);
        } else if (t.code == halide_type_float && t.bits == 64) {
            const double d = unit;
            std::memcpy(p + 8 * i, &d, 8);
        } else if (t.code == halide_type_float && t.bits == 16) {
            const uint16_t h = to_half_bits(unit);
            std::memcpy(p + 2 * i, &h, 2);
        } else if (t.code == halide_type_bfloat) {
            uint32_t b;
            std::memcpy(&b, &unit, 4);
            const uint16_t h = (uint16_t)(b >> 16);
            std::memcpy(p + 2 * i, &h, 2);
        } else {
            const uint64_t v = t.bits == 1 ? (r & 1) : small;
            std::memcpy(p + ((t.bits + 7) / 8) * i, &v, (t.bits + 7) / 8);  // little-endian
        }
    }
}

}  // namespace ansor::runner
