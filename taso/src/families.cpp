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
        if (in.shape.size() != 0 && in.shape.size() != 2 && in.shape.size() != 4)
            throw std::runtime_error("input entry '" + entry + "': rank must be 0, 2 or 4");
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
    return out;
}

}  // namespace taso
