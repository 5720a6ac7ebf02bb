// The operator suite's shapes as data: for each generator in
// generators/ops/, the shapes of Ansor's evaluation (batch 1; the first is
// the generator's default) and one small shape that keeps every feature of
// the op (stride, padding, groups, dilation, batch > 1) for quick tests.
//
//   for (const auto &op : ansor_ops::operator_suite())
//       for (const auto &shape : op.ansor_shapes)
//           run("-g " + op.name + " " + ansor_ops::generator_params(shape));
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace ansor_ops {

struct Param {
    std::string name;  // the GeneratorParam's name
    int value;
};

// One shape: every GeneratorParam of the op, in the generator's order.
using Shape = std::vector<Param>;

struct OpShapes {
    std::string name;                // generator name (HALIDE_REGISTER_GENERATOR)
    std::vector<Shape> ansor_shapes; // Ansor's shapes; [0] = the generator's defaults
    Shape small_shape;               // a small shape validated against test/reference
};

// Value of parameter `name` in `shape`; throws std::out_of_range if absent.
inline int param(const Shape &shape, const std::string &name) {
    for (const Param &p : shape) {
        if (p.name == name) return p.value;
    }
    throw std::out_of_range("shape has no parameter " + name);
}

// "N=1 H=224 W=224 ..." — generator-param arguments for GenGen.
inline std::string generator_params(const Shape &shape) {
    std::string s;
    for (const Param &p : shape) {
        if (!s.empty()) s += ' ';
        s += p.name + "=" + std::to_string(p.value);
    }
    return s;
}

// The same as separate arguments {"N=1", "H=224", ...} (argv, or
// add_halide_library's PARAMS).
inline std::vector<std::string> generator_param_args(const Shape &shape) {
    std::vector<std::string> args;
    for (const Param &p : shape) args.push_back(p.name + "=" + std::to_string(p.value));
    return args;
}

namespace detail {

// Zips parameter names with rows of values.
inline std::vector<Shape> shapes(const std::vector<std::string> &names,
                                 const std::vector<std::vector<int>> &rows) {
    std::vector<Shape> out;
    for (const auto &row : rows) {
        if (row.size() != names.size()) throw std::logic_error("shape row has the wrong length");
        Shape s;
        for (size_t i = 0; i < row.size(); i++) s.push_back({names[i], row[i]});
        out.push_back(s);
    }
    return out;
}

inline OpShapes op(const std::string &name, const std::vector<std::string> &params,
                   const std::vector<std::vector<int>> &ansor, const std::vector<int> &small) {
    return {name, shapes(params, ansor), shapes(params, {small})[0]};
}

}  // namespace detail

// Every operator, in the order of Ansor's single-operator benchmark.
inline const std::vector<OpShapes> &operator_suite() {
    using detail::op;
    static const std::vector<OpShapes> suite = {
        op("c1d", {"N", "L", "CI", "CO", "k", "s", "p"},
           {{1, 256, 64, 128, 3, 2, 1}, {1, 128, 128, 256, 1, 2, 0},
            {1, 64, 256, 256, 5, 1, 2}, {1, 32, 512, 512, 3, 1, 1}},
           {2, 11, 5, 6, 3, 2, 1}),
        op("c2d", {"N", "H", "W", "CI", "CO", "k", "s", "p"},
           {{1, 224, 224, 3, 64, 7, 2, 3}, {1, 56, 56, 64, 64, 1, 1, 0},
            {1, 14, 14, 256, 256, 3, 1, 1}, {1, 7, 7, 512, 512, 3, 1, 1}},
           {2, 9, 7, 3, 4, 3, 2, 1}),
        op("c3d", {"N", "D", "H", "W", "CI", "CO", "k", "s", "p"},
           {{1, 16, 224, 224, 3, 64, 7, 2, 3}, {1, 16, 56, 56, 64, 64, 1, 1, 0},
            {1, 16, 14, 14, 256, 256, 3, 1, 1}, {1, 16, 7, 7, 512, 512, 3, 1, 1}},
           {2, 5, 6, 7, 3, 4, 3, 2, 1}),
        op("gmm", {"B", "N", "M", "K"},
           {{1, 128, 128, 128}, {1, 512, 32, 512}, {1, 512, 512, 512}, {1, 1024, 1024, 1024}},
           {2, 5, 6, 7}),
        op("grp", {"N", "H", "W", "CI", "CO", "k", "s", "p", "groups"},
           {{1, 56, 56, 64, 128, 3, 2, 1, 4}, {1, 56, 56, 64, 64, 1, 1, 0, 4},
            {1, 14, 14, 256, 256, 3, 1, 1, 4}, {1, 7, 7, 512, 512, 3, 1, 1, 4}},
           {2, 8, 7, 8, 12, 3, 2, 1, 4}),
        op("dil", {"N", "H", "W", "CI", "CO", "k", "s", "p", "dilation"},
           {{1, 224, 224, 3, 64, 7, 2, 3, 2}, {1, 56, 56, 64, 64, 1, 1, 0, 2},
            {1, 14, 14, 256, 256, 3, 1, 1, 2}, {1, 7, 7, 512, 512, 3, 1, 1, 2}},
           {2, 11, 10, 3, 4, 3, 2, 1, 2}),
        op("dep", {"N", "H", "W", "C", "k", "s", "p"},
           {{1, 112, 112, 32, 3, 1, 1}, {1, 112, 112, 64, 3, 2, 1},
            {1, 14, 14, 512, 3, 2, 1}, {1, 7, 7, 1024, 3, 1, 1}},
           {2, 9, 8, 5, 3, 2, 1}),
        op("t2d", {"N", "H", "W", "CI", "CO", "k", "s", "p"},
           {{1, 4, 4, 512, 256, 4, 2, 1}, {1, 8, 8, 256, 128, 4, 2, 1},
            {1, 16, 16, 128, 64, 4, 2, 1}, {1, 32, 32, 64, 3, 4, 2, 1}},
           {2, 4, 5, 3, 4, 4, 2, 1}),
        op("cap", {"N", "H", "W", "CI", "CO", "k", "s", "p", "caps"},
           {{1, 16, 16, 32, 32, 3, 2, 1, 4}, {1, 8, 8, 32, 32, 3, 1, 1, 4},
            {1, 16, 16, 8, 16, 3, 2, 1, 4}, {1, 8, 8, 16, 16, 3, 1, 1, 4}},
           {2, 6, 5, 3, 2, 3, 2, 1, 4}),
        op("nrm", {"B", "M", "N"},
           {{1, 256, 256}, {1, 512, 512}, {1, 1024, 1024}, {1, 4096, 1024}},
           {3, 7, 9}),
        op("conv_layer", {"N", "H", "W", "CI", "CO", "k", "s", "p"},
           {{1, 224, 224, 3, 64, 7, 2, 3}, {1, 56, 56, 64, 128, 3, 2, 1},
            {1, 28, 28, 128, 256, 1, 2, 0}, {1, 7, 7, 512, 512, 3, 1, 1}},
           {2, 9, 8, 3, 5, 3, 2, 1}),
        op("tbs", {"batch", "seq", "heads", "dim"},
           {{1, 128, 12, 64}, {1, 128, 16, 64}, {1, 64, 12, 128}, {1, 128, 12, 128}},
           {2, 5, 3, 4}),
    };
    return suite;
}

// The network-layer generators (generators/layers/): the layers of the
// networks in networks/ that the suite's operators do not cover (fused
// bias / residual / activation epilogues, pooling, dense, normalisation).
// Kept apart from operator_suite() so that the suite's benchmarks and
// integration tests stay as they are. ansor_shapes holds the default shape
// only; the networks' shapes are in the task files. Codes: act 0 none,
// 1 relu, 2 gelu, 6 relu6; pool2d mode 0 max, 1 average.
inline const std::vector<OpShapes> &layer_generators() {
    using detail::op;
    static const std::vector<OpShapes> layers = {
        op("conv2d_bias_act", {"N", "H", "W", "CI", "CO", "k", "s", "p", "act", "residual"},
           {{1, 56, 56, 64, 64, 3, 1, 1, 1, 0}}, {2, 9, 7, 3, 4, 3, 2, 1, 6, 1}),
        op("depthwise_bias_act", {"N", "H", "W", "C", "k", "s", "p", "act"},
           {{1, 112, 112, 32, 3, 1, 1, 6}}, {2, 9, 8, 5, 3, 2, 1, 6}),
        op("dense_bias_act", {"N", "K", "M", "act"}, {{128, 768, 768, 0}}, {3, 7, 5, 2}),
        op("layer_norm", {"N", "D", "residual"}, {{128, 768, 1}}, {3, 7, 1}),
        op("pool2d", {"N", "H", "W", "C", "k", "s", "p", "mode"},
           {{1, 112, 112, 64, 3, 2, 1, 0}}, {2, 9, 8, 3, 3, 2, 1, 0}),
        op("softmax", {"N", "D"}, {{1536, 128}}, {3, 7}),
    };
    return layers;
}

// The entry for generator `name`; throws std::out_of_range if unknown.
inline const OpShapes &find_op(const std::string &name) {
    for (const OpShapes &op : operator_suite()) {
        if (op.name == name) return op;
    }
    throw std::out_of_range("unknown operator " + name);
}

// The entry for layer generator `name`; throws std::out_of_range if unknown.
inline const OpShapes &find_layer(const std::string &name) {
    for (const OpShapes &op : layer_generators()) {
        if (op.name == name) return op;
    }
    throw std::out_of_range("unknown layer generator " + name);
}

}  // namespace ansor_ops
