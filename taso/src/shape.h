// Symbolic tensor shapes for the substitution generator.
//
// A dimension is a small symbolic expression: a sum of shape symbols and a
// constant (what concat produces), optionally followed by convolution steps
// (what conv2d does to a spatial size). Equality is structural, so two
// shapes agree exactly when they agree for every value of the symbols.
//
// Every tensor also carries, per axis, its concat history (TASO's split
// tree): split undoes the most recent concat on an axis, so its split point
// needs no attribute of its own.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace taso {

// The names of the shape symbols (m, k, n, ...) of one input family.
class SymbolTable {
public:
    int intern(const std::string &name);
    std::optional<int> find(const std::string &name) const;
    const std::string &name(int id) const { return names_.at(id); }
    int size() const { return (int)names_.size(); }

private:
    std::vector<std::string> names_;
};

// One conv2d applied to a spatial size: same padding pads kernel/2 on each
// side (odd kernels), so out = (in - 1) / stride + 1; valid padding gives
// out = (in - kernel) / stride + 1.
struct ConvStep {
    int kernel = 1;
    int stride = 1;
    bool same = true;
    bool operator==(const ConvStep &o) const {
        return kernel == o.kernel && stride == o.stride && same == o.same;
    }
};

struct DimExpr {
    int64_t constant = 0;
    std::vector<int> symbols;     // sorted; a repeated id means a multiple
    std::vector<ConvStep> steps;  // applied in order to constant + sum(symbols)

    static DimExpr symbol(int id);
    static DimExpr literal(int64_t value);
    bool plain() const { return steps.empty(); }
    // The size for concrete symbol values; <= 0 when a valid convolution
    // does not fit.
    int64_t evaluate(const std::vector<int64_t> &symbol_values) const;
    std::string str(const SymbolTable &symbols) const;
    bool operator==(const DimExpr &o) const {
        return constant == o.constant && symbols == o.symbols && steps == o.steps;
    }
    bool operator!=(const DimExpr &o) const { return !(*this == o); }
};

// a + b; nullopt when either went through a convolution (the sum of two
// convolved sizes has no form here).
std::optional<DimExpr> add_dims(const DimExpr &a, const DimExpr &b);
// total - part where part's terms are all in total; nullopt otherwise.
std::optional<DimExpr> subtract_dims(const DimExpr &total, const DimExpr &part);
// The size after a convolution; steps that keep the size are dropped.
DimExpr conv_dim(const DimExpr &in, int kernel, int stride, bool same);
// Parses what DimExpr::str prints for plain dimensions ("k", "3", "n+n+2");
// throws std::runtime_error naming the text when it is not one.
DimExpr parse_dim(const std::string &text, SymbolTable &symbols);

struct SplitNode;
using SplitTree = std::shared_ptr<const SplitNode>;  // null: no concat history
struct SplitNode {
    DimExpr left;  // size of the left part
    SplitTree left_tree, right_tree;
};
bool same_tree(const SplitTree &a, const SplitTree &b);
// Concrete rendering of a tree (left sizes) for fingerprints.
std::string tree_key(const SplitTree &t, const std::vector<int64_t> &symbol_values);

struct TensorType {
    int rank = 0;  // 0 (a scalar), 1 (a bias), 2 or 4
    std::array<DimExpr, 4> dims;
    std::array<SplitTree, 4> splits;
};
bool same_shape(const TensorType &a, const TensorType &b);
std::string shape_str(const TensorType &t, const SymbolTable &symbols);

}  // namespace taso
