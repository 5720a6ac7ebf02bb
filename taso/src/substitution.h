// A verified graph substitution and its JSON form.
//
// JSON (written by save_substitutions, read by load_substitutions):
//
//   { "format": "ansor-taso-substitutions", "version": 1,
//     "substitutions": [ {
//       "family": "matrix",
//       "inputs": [ {"name": "A", "kind": "tensor", "shape": ["m", "k"]},
//                   {"name": "s", "kind": "scalar", "shape": []}, ... ],
//       "source": { "ops": [ {"op": "matmul", "operands": ["A", "B"]},
//                            {"op": "matmul", "operands": ["A", "C"]},
//                            {"op": "ewadd", "operands": ["%0", "%1"]} ],
//                   "outputs": ["%2"] },
//       "target": { "ops": [ ... ], "outputs": [ ... ] },
//       "outputs": [ [0, 0] ],
//       "constraints": { "k": ["A.1", "B.0", "C.0"], ... } } ] }
//
// inputs: the pattern's variables. kind is tensor | weight | scalar |
//   identity_kernel (the constant [c,c,1,1] identity convolution kernel,
//   which a matcher creates rather than binds). shape lists each axis as a
//   symbol, a constant ("3") or a sum ("n+n").
// ops: in topological order. An operand is an input name, "%i" (result 0 of
//   op i) or "%i.p" (result p of op i; split has results 0 and 1). attrs
//   appear only where the operator has them: concat/split {"axis": a};
//   conv2d {"stride": 1|2, "padding": "same"|"valid", "activation":
//   "none"|"relu"}; enlarge {"kernel": 3}. A split also records "left", the
//   size of its first part (it undoes the most recent concat on the axis).
// outputs: [source output index, target output index] pairs that are equal.
// constraints: for each symbol, the input axes ("name.axis") that must all
//   have the same size; a pattern matches when some positive sizes satisfy
//   them and both graphs are well-shaped at those sizes (a valid
//   convolution must fit; run infer_graph / check_substitution to test).
// Substitutions hold in both directions; source is the larger graph.
#pragma once

#include "pattern_graph.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace taso {

struct Substitution {
    InputFamily family;  // the inputs the two graphs use, with their symbols
    PatternGraph source, target;
    std::vector<std::pair<int, int>> outputs;  // {source output, target output}
};

void save_substitutions(const std::string &path, const std::vector<Substitution> &subs);
std::string substitutions_json(const std::vector<Substitution> &subs);
// Throws std::runtime_error naming the file, the substitution and the field
// at fault.
std::vector<Substitution> load_substitutions(const std::string &path);
std::vector<Substitution> parse_substitutions(const std::string &json_text, const std::string &origin = "<string>");

// Evaluates source and target on random floating-point inputs at the given
// symbol sizes; true when the corresponding outputs agree. Throws when a
// symbol has no size or a graph is ill-shaped at those sizes.
bool check_substitution(const Substitution &sub, const std::map<std::string, int64_t> &sizes, uint64_t seed = 1);

// One line per output: "source_expr = target_expr".
std::string describe(const Substitution &sub);

}  // namespace taso
