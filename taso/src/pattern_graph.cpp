#include "pattern_graph.h"

#include <stdexcept>

namespace taso {

namespace {
const char *const kKindNames[] = {"tensor", "weight", "scalar", "identity_kernel"};
}

const char *input_kind_name(InputKind kind) { return kKindNames[(int)kind]; }

InputKind input_kind_from_name(const std::string &name) {
    for (int i = 0; i < 4; i++)
        if (name == kKindNames[i]) return (InputKind)i;
    throw std::runtime_error("unknown input kind '" + name + "'");
}

TensorType input_type(const InputSpec &input) {
    TensorType t;
    t.rank = (int)input.shape.size();
    for (int i = 0; i < t.rank; i++) t.dims[i] = input.shape[i];
    return t;
}

const TensorType &type_of(const InputFamily &family, const std::vector<std::vector<TensorType>> &types,
                          const TensorRef &ref, std::vector<TensorType> &input_types) {
    if (ref.op < 0) {
        if (ref.index < 0 || ref.index >= (int)family.inputs.size())
            throw std::runtime_error("reference to input #" + std::to_string(ref.index) + " of " +
                                     std::to_string(family.inputs.size()));
        if (input_types.size() != family.inputs.size()) {
            input_types.clear();
            for (const auto &in : family.inputs) input_types.push_back(input_type(in));
        }
        return input_types[ref.index];
    }
    if (ref.op >= (int)types.size() || ref.port < 0 || ref.port >= (int)types[ref.op].size())
        throw std::runtime_error("reference to result " + std::to_string(ref.port) + " of op #" +
                                 std::to_string(ref.op) + ", which is not an earlier operator's result");
    return types[ref.op][ref.port];
}

std::vector<std::vector<TensorType>> infer_graph(const InputFamily &family, const PatternGraph &graph) {
    std::vector<std::vector<TensorType>> types;
    std::vector<TensorType> input_types;
    for (size_t i = 0; i < graph.ops.size(); i++) {
        const PatternOp &op = graph.ops[i];
        std::vector<const TensorType *> operands;
        for (const TensorRef &r : op.operands) operands.push_back(&type_of(family, types, r, input_types));
        std::vector<TensorType> results;
        for (int p = 0; p < num_results(op.kind); p++) {
            std::string why;
            auto t = infer_result(op.kind, op.attrs, operands, p, &why);
            if (!t) throw std::runtime_error("op #" + std::to_string(i) + " (" + op_name(op.kind) + "): " + why);
            results.push_back(*t);
        }
        types.push_back(std::move(results));
    }
    for (const TensorRef &r : graph.outputs) type_of(family, types, r, input_types);
    return types;
}

template <class V>
std::vector<Tensor<V>> random_inputs(const InputFamily &family, const std::vector<int64_t> &symbol_values,
                                     std::mt19937_64 &rng) {
    std::vector<Tensor<V>> values;
    for (const InputSpec &in : family.inputs) {
        std::vector<int64_t> shape;
        for (const DimExpr &d : in.shape) shape.push_back(d.evaluate(symbol_values));
        if (in.kind == InputKind::IdentityKernel)
            values.push_back(identity_kernel<V>(shape.at(0)));
        else
            values.push_back(random_tensor<V>(shape, rng));
    }
    return values;
}

template <class V>
std::vector<Tensor<V>> evaluate_graph(const InputFamily &family, const PatternGraph &graph,
                                      const std::vector<Tensor<V>> &inputs,
                                      const std::vector<int64_t> &symbol_values,
                                      const std::vector<std::vector<Tensor<V>>> *overrides) {
    auto types = infer_graph(family, graph);
    std::vector<std::vector<Tensor<V>>> results;
    auto value = [&](const TensorRef &r) -> const Tensor<V> & {
        return r.op < 0 ? inputs.at(r.index) : results.at(r.op).at(r.port);
    };
    for (size_t i = 0; i < graph.ops.size(); i++) {
        const PatternOp &op = graph.ops[i];
        std::vector<Tensor<V>> out;
        if (overrides && i < overrides->size() && !(*overrides)[i].empty()) {
            out = (*overrides)[i];
        } else {
            std::vector<const Tensor<V> *> operands;
            for (const TensorRef &r : op.operands) operands.push_back(&value(r));
            int64_t left = 0;
            if (op.kind == OpKind::Split) {
                std::vector<TensorType> input_types;
                const TensorType &t = type_of(family, types, op.operands[0], input_types);
                left = t.splits[op.attrs.axis]->left.evaluate(symbol_values);
            }
            for (int p = 0; p < num_results(op.kind); p++)
                out.push_back(eval_op<V>(op.kind, op.attrs, operands, p, left));
        }
        results.push_back(std::move(out));
    }
    std::vector<Tensor<V>> outputs;
    for (const TensorRef &r : graph.outputs) outputs.push_back(value(r));
    return outputs;
}

std::string render(const InputFamily &family, const PatternGraph &graph, const TensorRef &ref) {
    if (ref.op < 0) return family.inputs.at(ref.index).name;
    const PatternOp &op = graph.ops.at(ref.op);
    std::string s = op_name(op.kind);
    if (num_results(op.kind) > 1) s += std::to_string(ref.port);
    s += "(";
    std::string a = attrs_str(op.kind, op.attrs);
    if (!a.empty()) s += a + ";";
    for (size_t i = 0; i < op.operands.size(); i++) s += (i ? "," : "") + render(family, graph, op.operands[i]);
    return s + ")";
}

template std::vector<Tensor<int64_t>> random_inputs(const InputFamily &, const std::vector<int64_t> &,
                                                    std::mt19937_64 &);
template std::vector<Tensor<double>> random_inputs(const InputFamily &, const std::vector<int64_t> &,
                                                   std::mt19937_64 &);
template std::vector<Tensor<int64_t>> evaluate_graph(const InputFamily &, const PatternGraph &,
                                                     const std::vector<Tensor<int64_t>> &,
                                                     const std::vector<int64_t> &,
                                                     const std::vector<std::vector<Tensor<int64_t>>> *);
template std::vector<Tensor<double>> evaluate_graph(const InputFamily &, const PatternGraph &,
                                                    const std::vector<Tensor<double>> &,
                                                    const std::vector<int64_t> &,
                                                    const std::vector<std::vector<Tensor<double>>> *);

}  // namespace taso
