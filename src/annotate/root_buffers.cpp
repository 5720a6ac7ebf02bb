#include "annotate/root_buffers.h"

#include "state/steps.h"
#include "util/memory_size.h"

#include <algorithm>

namespace ansor {

namespace {

// Bytes of `func`'s buffer where `model` computes it: its region there times
// the bytes of one value (all of a Tuple's elements).
int64_t buffer_bytes(const LoopNest &model, const std::string &func) {
    const ModelFunc &f = model.func(func);
    const ModelFunc &origin = f.dag_index >= 0 ? f : model.func(f.created_from);
    int64_t bytes = 1;
    if (origin.dag_index >= 0) {
        bytes = 0;
        for (const Halide::Type &t : model.dag().node(origin.dag_index).func.output_types()) bytes += t.bytes();
    }
    for (int64_t e : f.extents) bytes *= std::max<int64_t>(1, e);
    return bytes;
}

}  // namespace

int64_t root_buffer_bytes(const LoopNest &model, const std::string &func) {
    LoopNest at_root = model;
    ComputeLocationStep(func, Location{}).replay(at_root);
    return buffer_bytes(at_root, func);
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

void check_unmodelled_buffers_inside_loops(const LoopNest &m) {
    for (const ModelFunc &f : m.funcs()) {
        if (f.location.kind != LocationKind::At || f.dag_index < 0 || m.dag().node(f.dag_index).modelled) continue;
        const int64_t bytes = buffer_bytes(m, f.name);
        if ((uint64_t)bytes <= kLargestReusedHeapBlockBytes) continue;
        throw InvalidState("'" + f.name + "' computed at loop '" + f.location.loop + "' of '" + f.location.func +
                           "' holds " + memory_size_text((uint64_t)bytes) +
                           " there, which the allocator maps afresh on every iteration");
    }
}

}  // namespace ansor
