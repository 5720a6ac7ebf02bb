#include "annotate/root_buffers.h"

#include "state/steps.h"
#include "util/memory_size.h"

#include <algorithm>

namespace ansor {

int64_t root_buffer_bytes(const LoopNest &model, const std::string &func) {
    LoopNest at_root = model;
    ComputeLocationStep(func, Location{}).replay(at_root);
    const ModelFunc &f = at_root.func(func);
    const ModelFunc &origin = f.dag_index >= 0 ? f : at_root.func(f.created_from);
    int64_t bytes = 1;
    if (origin.dag_index >= 0) {
        bytes = 0;
        for (const Halide::Type &t : at_root.dag().node(origin.dag_index).func.output_types()) bytes += t.bytes();
    }
    for (int64_t e : f.extents) bytes *= std::max<int64_t>(1, e);
    return bytes;
}

double recompute_factor(const LoopNest &model, const std::string &func) {
    LoopNest at_root = model;
    ComputeLocationStep(func, Location{}).replay(at_root);
    double points = 1, root_points = 1;
    for (int64_t e : model.func(func).extents) points *= (double)std::max<int64_t>(1, e);
    for (const Location &l : model.enclosing_loops(func)) {
        points *= (double)std::max<int64_t>(1, model.loop(l.func, l.stage, l.loop).extent);
    }
    for (int64_t e : at_root.func(func).extents) root_points *= (double)std::max<int64_t>(1, e);
    return points / root_points;
}

bool root_buffer_mapped_each_run(const LoopNest &model, const std::string &func) {
    return (uint64_t)root_buffer_bytes(model, func) > kLargestReusedHeapBlockBytes;
}

}  // namespace ansor
