#include "measure/measurement_buffers.h"

#include "measure/input_values.h"

#include <algorithm>
#include <functional>

namespace ansor {

using namespace Halide;
using namespace Halide::Internal;

namespace {

class ReplaceImages : public IRMutator {
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        Expr e = IRMutator::visit(op);
        const Call *c = e.as<Call>();
        if (!c || c->call_type != Call::Image || c->param.defined()) return e;
        auto it = stand_ins.find(c->name);
        if (it == stand_ins.end()) return e;
        return Call::make(it->second, c->args);
    }

public:
    explicit ReplaceImages(const std::map<std::string, Buffer<>> &s) : stand_ins(s) {}
    const std::map<std::string, Buffer<>> &stand_ins;
};

int64_t extent_of(const DimRange &r) { return std::max<int64_t>(1, r.extent); }

}  // namespace

Buffer<> make_measurement_buffer(const Type &type, const std::vector<DimRange> &region,
                                 const BufferConstraints &constraints) {
    const int dims = (int)region.size();
    if (!constraints.pins_stride()) {
        std::vector<int> sizes, mins;
        for (const auto &r : region) {
            sizes.push_back((int)extent_of(r));
            mins.push_back((int)r.min);
        }
        Buffer<> b(type, sizes);
        b.set_min(mins);
        return b;
    }
    // Pinned strides first; each other dimension packed outside everything so far.
    std::vector<halide_dimension_t> shape(dims);
    int64_t next = 1;
    for (int d = 0; d < dims; d++) {
        const bool pinned = d < (int)constraints.stride.size() && constraints.stride[d];
        if (pinned) next = std::max(next, std::abs(*constraints.stride[d]) * extent_of(region[d]));
    }
    for (int d = 0; d < dims; d++) {
        const bool pinned = d < (int)constraints.stride.size() && constraints.stride[d];
        int64_t stride = pinned ? *constraints.stride[d] : next;
        if (!pinned) next *= extent_of(region[d]);
        shape[d] = halide_dimension_t((int32_t)region[d].min, (int32_t)extent_of(region[d]), (int32_t)stride);
    }
    // Halide allocates it to the shape's span, host pointer 128-byte aligned.
    Buffer<> view(type, nullptr, dims, shape.data());
    view.allocate();
    return view;
}

bool is_dense(const Buffer<> &b) {
    int64_t expected = 1;
    for (int d = 0; d < b.dimensions(); d++) {
        if (b.dim(d).stride() != expected) return false;
        expected *= b.dim(d).extent();
    }
    return true;
}

std::map<std::string, Buffer<>> embedded_stand_ins(const PipelineDAG &dag) {
    std::map<std::string, Buffer<>> out;
    for (const EmbeddedBuffer &e : dag.embedded_buffers()) {
        if (e.covers_region()) continue;
        Buffer<> b = make_measurement_buffer(e.buffer.type(), e.region);
        fill_random(b, std::hash<std::string>()(e.name), input_value_range(e.buffer.type(), largest_reduction(dag)));
        b.copy_from(e.buffer);
        out[e.name] = b;
    }
    return out;
}

void use_stand_ins(const std::map<std::string, Function> &env, const std::map<std::string, Buffer<>> &stand_ins) {
    if (stand_ins.empty()) return;
    ReplaceImages replace(stand_ins);
    for (const auto &kv : env) {
        Function f = kv.second;
        f.mutate(&replace);
    }
}

}  // namespace ansor
