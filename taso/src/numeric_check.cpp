#include "numeric_check.h"

#include <cmath>

namespace taso {

bool tensors_close(const Tensor<double> &a, const Tensor<double> &b) {
    if (a.shape != b.shape || a.data.size() != b.data.size()) return false;
    for (size_t i = 0; i < a.data.size(); i++)
        if (std::fabs(a.data[i] - b.data[i]) > 1e-6 * (1 + std::fabs(a.data[i]) + std::fabs(b.data[i])))
            return false;
    return true;
}

bool numerically_equal(const InputFamily &family, const PatternGraph &a, const PatternGraph &b,
                       const std::vector<std::pair<int, int>> &outputs, const std::vector<int64_t> &symbol_sizes,
                       uint64_t seed, int trials) {
    std::mt19937_64 rng(seed);
    for (int t = 0; t < trials; t++) {
        auto inputs = random_inputs<double>(family, symbol_sizes, rng);
        // A scalar's sign decides identities such as relu(x s) = relu(x) s:
        // alternate it between trials instead of leaving it to chance.
        for (size_t i = 0; i < inputs.size(); i++)
            if (family.inputs[i].kind == InputKind::Scalar)
                for (double &v : inputs[i].data) v = (t % 2 ? -1.0 : 1.0) * (0.25 + std::fabs(v));
        auto va = evaluate_graph<double>(family, a, inputs, symbol_sizes);
        auto vb = evaluate_graph<double>(family, b, inputs, symbol_sizes);
        for (auto [i, j] : outputs)
            if (!tensors_close(va.at(i), vb.at(j))) return false;
    }
    return true;
}

}  // namespace taso
