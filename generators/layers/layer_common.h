// Helpers shared by the network-layer generators (generators/layers/*.cpp):
// the fused epilogues (bias, residual add, activation) that follow a
// network's core operations. The core helpers (window size, zero padding,
// estimates) are those of the operator suite (generators/ops/common.h).
#pragma once

#include "../ops/common.h"

#include <stdexcept>
#include <string>

namespace ansor_layers {

// Activation codes of the `act` GeneratorParam.
enum Activation { kNone = 0, kRelu = 1, kGelu = 2, kRelu6 = 6 };

// `x` passed through activation `act`; throws for an unknown code, so that a
// typo in a task file stops the build instead of silently changing the layer.
inline Halide::Expr activate(const Halide::Expr &x, int act) {
    switch (act) {
    case kNone: return x;
    case kRelu: return Halide::max(x, 0.f);
    case kRelu6: return Halide::clamp(x, 0.f, 6.f);
    case kGelu: {
        // GELU, tanh form (BERT's): 0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³))).
        const float c = 0.7978845608f;
        return 0.5f * x * (1.f + Halide::tanh(c * (x + 0.044715f * x * x * x)));
    }
    }
    throw std::invalid_argument("unknown activation code act=" + std::to_string(act) +
                                " (0 none, 1 relu, 2 gelu, 6 relu6)");
}

}  // namespace ansor_layers
