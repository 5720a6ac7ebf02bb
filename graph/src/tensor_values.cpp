#include "tensor_values.h"
#include "util/splitmix.h"

#include <cmath>

namespace ansor_graph {

namespace {

using ansor::splitmix64;

// FNV-1a: std::hash<std::string> may differ between standard libraries.
uint64_t name_hash(const std::string &s) {
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    return h;
}

void fill_uniform(Tensor &t, uint64_t seed, const std::string &name, float low, float high) {
    const uint64_t base = splitmix64(seed ^ name_hash(name));
    for (int64_t i = 0; i < t.size(); i++) {
        const double u = (double)(splitmix64(base + (uint64_t)i) >> 11) * (1.0 / 9007199254740992.0);  // [0, 1)
        t[i] = (float)(low + (high - low) * u);
    }
}

}  // namespace

Tensor make_tensor(const Shape &shape, float fill) {
    Tensor t;
    t.shape = shape;
    t.storage = std::make_shared<std::vector<float>>((size_t)element_count(shape), fill);
    return t;
}

TensorMap declared_values(const Graph &g, uint64_t seed) {
    TensorMap m;
    for (const auto &name : g.inputs) {
        Tensor t = make_tensor(g.tensor(name).shape);
        fill_uniform(t, seed, name, -1.f, 1.f);
        m[name] = t;
    }
    for (const auto &name : g.weights) {
        const TensorInfo &info = g.tensor(name);
        Tensor t = make_tensor(info.shape);
        if (info.init == "ones") {
            std::fill(t.storage->begin(), t.storage->end(), 1.f);
        } else if (info.init == "uniform") {
            fill_uniform(t, seed, name, info.low, info.high);
        } else if (info.init == "fan_in") {
            const int64_t fan_in = info.shape.size() == 1 ? 0 : element_count(info.shape) / info.shape.back();
            const float bound = fan_in ? (float)std::sqrt(6.0 / (double)fan_in) : 0.1f;
            fill_uniform(t, seed, name, -bound, bound);
        } else if (info.init == "identity") {  // [.., C, C]: 1 where the last two indices agree
            const int64_t c = info.shape.back();
            for (int64_t i = 0; i < t.size(); i += c * c)
                for (int64_t k = 0; k < c; k++) t[i + k * c + k] = 1.f;
        }  // zeros: as made
        m[name] = t;
    }
    return m;
}

}  // namespace ansor_graph
