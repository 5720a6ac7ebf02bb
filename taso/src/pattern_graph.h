// A small operator graph over named inputs: what a substitution's source
// and target are, and what the enumerator's graphs turn into.
#pragma once

#include "ops.h"
#include "tensor_eval.h"

#include <optional>
#include <random>
#include <string>
#include <vector>

namespace taso {

enum class InputKind {
    Tensor,          // an activation / data tensor
    Weight,          // a convolution kernel or other parameter
    Scalar,          // a rank-0 tensor (smul's factor)
    IdentityKernel,  // constant [c, c, 1, 1] identity convolution kernel
};
const char *input_kind_name(InputKind kind);
// Throws std::runtime_error naming the text for an unknown kind.
InputKind input_kind_from_name(const std::string &name);

struct InputSpec {
    std::string name;
    InputKind kind = InputKind::Tensor;
    std::vector<DimExpr> shape;  // plain dimensions; empty for a scalar
};
TensorType input_type(const InputSpec &input);

// A tensor of the graph: an input (op == -1, index into the input list) or
// result `port` of operator `op`.
struct TensorRef {
    int op = -1;
    int index = 0;
    int port = 0;
    bool operator==(const TensorRef &o) const { return op == o.op && index == o.index && port == o.port; }
};

struct PatternOp {
    OpKind kind = OpKind::Relu;
    OpAttrs attrs;
    std::vector<TensorRef> operands;
};

// Operators in topological order (operands refer to earlier operators).
struct PatternGraph {
    std::vector<PatternOp> ops;
    std::vector<TensorRef> outputs;
};

// The inputs and shape symbols a group of graphs is written over.
struct InputFamily {
    std::string name;
    SymbolTable symbols;
    std::vector<InputSpec> inputs;
};

// Symbolic types of every result of every operator ([op][port]). Throws
// std::runtime_error naming the operator and the reason when ill-shaped.
std::vector<std::vector<TensorType>> infer_graph(const InputFamily &family, const PatternGraph &graph);
const TensorType &type_of(const InputFamily &family, const std::vector<std::vector<TensorType>> &types,
                          const TensorRef &ref, std::vector<TensorType> &input_types);

// Random values for the inputs at concrete symbol sizes (identity kernels
// get their constant value).
template <class V>
std::vector<Tensor<V>> random_inputs(const InputFamily &family, const std::vector<int64_t> &symbol_values,
                                     std::mt19937_64 &rng);

// The graph's outputs. overrides[i], when not empty, replaces operator i's
// results (used to test whether a shared subgraph can be abstracted away).
template <class V>
std::vector<Tensor<V>> evaluate_graph(const InputFamily &family, const PatternGraph &graph,
                                      const std::vector<Tensor<V>> &inputs,
                                      const std::vector<int64_t> &symbol_values,
                                      const std::vector<std::vector<Tensor<V>>> *overrides = nullptr);

// The expression a tensor computes, e.g. "matmul(A,ewadd(B,C))".
std::string render(const InputFamily &family, const PatternGraph &graph, const TensorRef &ref);

}  // namespace taso
