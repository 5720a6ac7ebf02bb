#include "families.h"

#include <stdexcept>
#include <tuple>

namespace taso {

InputFamily make_family(const std::string &name, const std::vector<std::string> &inputs) {
    InputFamily f;
    f.name = name;
    for (const std::string &entry : inputs) {
        size_t a = entry.find(':'), b = entry.find(':', a == std::string::npos ? a : a + 1);
        if (a == std::string::npos || b == std::string::npos)
            throw std::runtime_error("input entry '" + entry + "' is not name:kind:dims");
        InputSpec in;
        in.name = entry.substr(0, a);
        in.kind = input_kind_from_name(entry.substr(a + 1, b - a - 1));
        std::string dims = entry.substr(b + 1);
        size_t i = 0;
        while (i < dims.size()) {
            size_t j = dims.find(',', i);
            if (j == std::string::npos) j = dims.size();
            in.shape.push_back(parse_dim(dims.substr(i, j - i), f.symbols));
            i = j + 1;
        }
        if (in.shape.size() == 3 || in.shape.size() > 4)
            throw std::runtime_error("input entry '" + entry + "': rank must be 0, 1, 2 or 4");
        if (in.shape.size() == 1 && in.kind != InputKind::Weight)
            throw std::runtime_error("input entry '" + entry + "': only weights (biases) have rank 1");
        if ((in.kind == InputKind::Scalar) != in.shape.empty())
            throw std::runtime_error("input entry '" + entry + "': only scalars have rank 0");
        f.inputs.push_back(in);
    }
    return f;
}

std::vector<EnumerationFamily> default_families() {
    std::vector<EnumerationFamily> out;
    auto variant = [](OpKind k) { return OpVariant{k, OpAttrs{}}; };
    auto axis = [](OpKind k, int ax) {
        OpAttrs a;
        a.axis = ax;
        return OpVariant{k, a};
    };

    EnumerationFamily matrix;
    matrix.family = make_family("matrix", {"A:tensor:m,k", "B:tensor:k,n", "C:tensor:k,n", "s:scalar:"});
    matrix.ops = {variant(OpKind::Matmul), variant(OpKind::EwAdd),    variant(OpKind::EwMul),
                  variant(OpKind::ScalarMul), variant(OpKind::Relu),  variant(OpKind::Transpose),
                  axis(OpKind::Concat, 0),  axis(OpKind::Concat, 1), axis(OpKind::Split, 0),
                  axis(OpKind::Split, 1)};
    // m, k, n: distinct so that no shape coincidence hides a mismatch.
    matrix.fingerprint_sizes = {3, 2, 4};
    matrix.recheck_sizes = {4, 3, 5};
    out.push_back(matrix);

    EnumerationFamily conv;
    conv.family = make_family("conv", {"X:tensor:b,c,h,w", "W1:weight:c,c,3,3", "W2:weight:c,c,3,3",
                                       "W3:weight:c,c,1,1", "I:identity_kernel:c,c,1,1", "s:scalar:"});
    // stride 1 same padding with and without relu, stride 2, valid padding.
    for (auto [stride, pad, act] : {std::tuple{1, Padding::Same, Activation::None},
                                    std::tuple{1, Padding::Same, Activation::Relu},
                                    std::tuple{2, Padding::Same, Activation::None},
                                    std::tuple{1, Padding::Valid, Activation::None}}) {
        OpAttrs a;
        a.stride = stride;
        a.padding = pad;
        a.activation = act;
        conv.ops.push_back(OpVariant{OpKind::Conv2d, a});
    }
    OpAttrs enlarge;
    enlarge.kernel = 3;
    conv.ops.push_back(OpVariant{OpKind::Enlarge, enlarge});
    for (OpKind k : {OpKind::EwAdd, OpKind::ScalarMul, OpKind::Relu}) conv.ops.push_back(variant(k));
    for (int ax : {0, 1}) {
        conv.ops.push_back(axis(OpKind::Concat, ax));
        conv.ops.push_back(axis(OpKind::Split, ax));
    }
    // b, c, h, w: h and w large enough for two valid 3x3 convolutions.
    conv.fingerprint_sizes = {2, 2, 6, 5};
    conv.recheck_sizes = {3, 3, 7, 9};
    out.push_back(conv);

    // Layers with a bias, as networks write them: dense layers sharing an
    // input (attention's Q, K, V projections), convolutions sharing an input
    // (a 1x1 beside a 3x3, as in SqueezeNet's fire modules and Inception's
    // branches). Every layer has its own output size (a bias fits one layer
    // only), and there are few operators, so that four of them (two layers
    // merged over concatenated kernels and biases, then split) stay cheap
    // to enumerate.
    EnumerationFamily dense;
    dense.family = make_family("dense_bias", {"A:tensor:m,k", "B:weight:k,n", "C:weight:k,p", "b1:weight:n",
                                              "b2:weight:p"});
    dense.ops = {variant(OpKind::MatmulBias), axis(OpKind::Concat, 0), axis(OpKind::Concat, 1),
                 axis(OpKind::Split, 0), axis(OpKind::Split, 1)};
    dense.fingerprint_sizes = {3, 2, 4, 5};
    dense.recheck_sizes = {4, 3, 5, 2};
    dense.max_ops = 4;
    out.push_back(dense);

    EnumerationFamily conv_bias;
    conv_bias.family = make_family("conv_bias", {"X:tensor:b,c,h,w", "W1:weight:o,c,3,3", "W3:weight:p,c,1,1",
                                                 "W4:weight:q,c,1,1", "b1:weight:o", "b2:weight:p",
                                                 "b3:weight:q"});
    for (Activation act : {Activation::None, Activation::Relu}) {
        OpAttrs a;
        a.activation = act;
        conv_bias.ops.push_back(OpVariant{OpKind::Conv2dBias, a});
    }
    conv_bias.ops.push_back(OpVariant{OpKind::Enlarge, enlarge});
    for (int ax : {0, 1}) {
        conv_bias.ops.push_back(axis(OpKind::Concat, ax));
        conv_bias.ops.push_back(axis(OpKind::Split, ax));
    }
    conv_bias.fingerprint_sizes = {2, 3, 6, 5, 4, 2, 3};
    conv_bias.recheck_sizes = {3, 2, 7, 9, 5, 4, 6};
    conv_bias.max_ops = 4;
    out.push_back(conv_bias);

    // A residual block's end: a layer (1x1 or 3x3, stride 1) whose result
    // meets a shortcut R in an addition, then relu, and the layer that does
    // all three at once.
    EnumerationFamily residual;
    residual.family = make_family("residual", {"X:tensor:b,c,h,w", "W1:weight:o,c,1,1", "W2:weight:o,c,3,3",
                                               "b1:weight:o", "R:tensor:b,o,h,w"});
    for (OpKind k : {OpKind::Conv2dBias, OpKind::Conv2dBiasAdd})
        for (Activation act : {Activation::None, Activation::Relu}) {
            OpAttrs a;
            a.activation = act;
            residual.ops.push_back(OpVariant{k, a});
        }
    for (OpKind k : {OpKind::EwAdd, OpKind::Relu}) residual.ops.push_back(variant(k));
    residual.fingerprint_sizes = {2, 3, 4, 5, 6};
    residual.recheck_sizes = {3, 2, 5, 7, 4};
    residual.max_ops = 3;
    out.push_back(residual);
    return out;
}

}  // namespace taso
