#include "dag/root_region_bytes.h"

#include "util/memory_size.h"

#include <algorithm>

namespace ansor {

double root_region_bytes(const Node &node) {
    if (node.region.empty()) return 0;
    double bytes = 0;
    for (const Halide::Type &t : node.func.output_types()) bytes += t.bytes();
    for (const DimRange &r : node.region) bytes *= (double)std::max<int64_t>(1, r.extent);
    return bytes;
}

bool root_region_outgrows_reused_heap_blocks(const Node &node) {
    return root_region_bytes(node) > (double)kLargestReusedHeapBlockBytes;
}

}  // namespace ansor
