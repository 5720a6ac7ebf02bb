#include "measure/fresh_process_heap.h"
#include "util/memory_size.h"

#include <malloc.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>

namespace ansor {

namespace {

constexpr size_t kStartThreshold = 128 << 10;     // glibc's DEFAULT_MMAP_THRESHOLD_MIN and trim threshold
constexpr size_t kLargestThreshold = kLargestReusedHeapBlockBytes;
constexpr size_t kPage = 4096;
constexpr size_t kChunkHeader = 16;               // size field and alignment of a glibc chunk
constexpr size_t kHalideAlignment = 128;          // Halide's default halide_malloc alignment

std::atomic<size_t> largest_seen{0};

}  // namespace

HeapThresholds fresh_process_thresholds_after(size_t largest_block_bytes) {
    // A mapped block's chunk is its request plus the header, rounded up to pages.
    const size_t chunk = (largest_block_bytes + kChunkHeader + kPage - 1) / kPage * kPage;
    // Only a mapped block of up to 32 MiB moves the thresholds when freed.
    if (largest_block_bytes == 0 || chunk <= kStartThreshold || chunk > kLargestThreshold) {
        return {kStartThreshold, kStartThreshold};
    }
    return {chunk, 2 * chunk};
}

void start_heap_as_a_fresh_process() {
    mallopt(M_MMAP_THRESHOLD, (int)kStartThreshold);
    mallopt(M_TRIM_THRESHOLD, (int)kStartThreshold);
    malloc_trim(0);
}

void allocate_as_a_fresh_process_after_its_first_run(size_t largest_block_bytes) {
    const HeapThresholds t = fresh_process_thresholds_after(largest_block_bytes);
    mallopt(M_MMAP_THRESHOLD, (int)t.mmap_bytes);
    mallopt(M_TRIM_THRESHOLD, (int)t.trim_bytes);
}

void *recording_halide_malloc(size_t bytes) {
    const size_t request = bytes + kHalideAlignment;
    if (request <= kLargestThreshold) {
        size_t seen = largest_seen.load(std::memory_order_relaxed);
        while (request > seen && !largest_seen.compare_exchange_weak(seen, request, std::memory_order_relaxed)) {
        }
    }
    void *orig = std::malloc(request);
    if (!orig) return nullptr;
    // Aligned past the pointer to the block, which sits just before.
    uintptr_t aligned = ((uintptr_t)orig + sizeof(void *) + kHalideAlignment - 1) & ~(uintptr_t)(kHalideAlignment - 1);
    ((void **)aligned)[-1] = orig;
    return (void *)aligned;
}

void recording_halide_free(void *block) {
    if (block) std::free(((void **)block)[-1]);
}

void reset_largest_block() { largest_seen.store(0, std::memory_order_relaxed); }

size_t largest_block() { return largest_seen.load(std::memory_order_relaxed); }

}  // namespace ansor
