#pragma once
// Tensor storage shared by the reference and the Halide executor, and the
// deterministic values of a graph's inputs and weights.
#include "graph_ir.h"

#include <memory>

namespace ansor_graph {

// A dense row-major float tensor. Storage is shared so that a reshape can
// alias its input (every tensor is written once, so aliasing is safe).
struct Tensor {
    Shape shape;
    std::shared_ptr<std::vector<float>> storage;
    float *data() { return storage->data(); }
    const float *data() const { return storage->data(); }
    int64_t size() const { return element_count(shape); }
    float &operator[](int64_t i) { return (*storage)[i]; }
    float operator[](int64_t i) const { return (*storage)[i]; }
};
Tensor make_tensor(const Shape &shape, float fill = 0.f);

using TensorMap = std::map<std::string, Tensor>;

// Values of every input and weight of `g`, from `seed`. Element i of tensor
// t is a hash of (seed, t's name, i) alone, so values do not depend on the
// order of declarations or on other tensors. Inputs are uniform in [-1, 1);
// weights follow their "init": fan_in (uniform ±sqrt(6 / fan_in), fan_in
// the product of all dims but the last; ±0.1 for 1-D weights), uniform
// (its range), ones, zeros, identity ([1, .., 1, C, C]: 1 where the last
// two indices agree, e.g. the identity convolution kernel [1, 1, C, C]).
TensorMap declared_values(const Graph &g, uint64_t seed);

}  // namespace ansor_graph
