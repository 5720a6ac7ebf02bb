#pragma once
// Applies TASO's verified substitutions (taso/src/substitution.h) to a
// network graph: finds every match of a rule's pattern among the graph's
// nodes, checks the pattern's shape constraints at the graph's sizes, and
// rewrites the matched nodes to the other side of the substitution.
//
// Operators (taso -> graph):
//   matmul    -> matmul or dense with two inputs, no activation, a 2-D first input
//   ewadd     -> add           ewmul -> mul          relu -> relu
//   transpose -> transpose with perm [1, 0]
//   concat    -> concat of two tensors    split -> split into two
//   conv2d    -> conv2d: no bias, groups 1, no dilation, stride (s, s);
//                "same" = padding (KH/2, KW/2) with odd kernels, "valid" = 0;
//                activation none or relu
//   enlarge   -> enlarge to kernel (k, k)
// smul (no graph operator multiplies by a scalar) is not used. An identity
// kernel the side to build needs is created as a new weight declared with
// init "identity" ([1, 1, C, C]); an identity kernel on the matched side
// binds only to such a weight. Axes: taso's 4-D data tensors are [b, c, h, w] and the graph's
// NHWC [N, H, W, C]; taso's kernels are [o, c, kh, kw] and the graph's
// [KH, KW, CI, CO]; a pattern value is a kernel when it is a weight input,
// an enlarge result, or derived from one by the other operators, and its
// axes (shape checks, concat/split axes) are mapped accordingly. A 4-D data
// tensor must be tagged NHWC in the graph.
//
// Rewrites keep the graph's meaning: substitutions are identities over
// values, so a pattern input may bind to any tensor (an activation, a
// weight, or a node's output); a target that needs derived weights (e.g.
// concatenated kernels) gets nodes that compute them from the original
// weights. A match is rejected when an intermediate result of the matched
// nodes is used outside them or is a graph output.
#include "graph_ir.h"

#include "substitution.h"

#include <optional>
#include <set>

namespace ansor_graph {

// One direction of a substitution: `from` is matched, `to` replaces it.
struct SubstitutionRule {
    int index = 0;          // in the substitution file
    bool reversed = false;  // target -> source
    taso::InputFamily family;
    taso::PatternGraph from, to;
    std::vector<std::pair<int, int>> outputs;  // {from output, to output} that are equal
    std::string text;                          // "from = to", for printing
    // Derived once: symbolic types of both sides ([op][port]) and the role
    // of every family input (see the header comment).
    std::vector<std::vector<taso::TensorType>> from_types, to_types;
    std::vector<int> input_roles;
};

struct RuleSetStats {
    int substitutions = 0, rules = 0;
    int skipped_scalar = 0;  // smul or a scalar input
    int skipped_other = 0;   // no operator to match, or the side to build uses an input the matched side lacks
};

// Both directions of every usable substitution.
std::vector<SubstitutionRule> make_rules(const std::vector<taso::Substitution> &subs, RuleSetStats *stats = nullptr);

struct SubstitutionMatch {
    const SubstitutionRule *rule = nullptr;
    std::vector<int> nodes;                      // graph node index of each `from` operator
    std::vector<std::string> inputs;             // tensor bound to each family input ("" when unused)
    std::vector<int64_t> symbols;                // the shape symbols' sizes
    std::string describe(const Graph &g) const;  // "rule #i: matmul(A,B)... at nodes a, b"
};

// What matching needs of a graph, built once per graph when many rules are
// tried on it.
struct GraphIndex {
    std::map<std::string, std::vector<int>> consumers;  // tensor -> node indices
    std::set<std::string> ops;                         // operators present
};
GraphIndex index_graph(const Graph &g);

// Every match of `rule` in `g` that passes the shape and use checks, up to
// `limit` of them. `index`, when given, must be index_graph(g).
std::vector<SubstitutionMatch> find_matches(const Graph &g, const SubstitutionRule &rule, size_t limit = 1000,
                                            const GraphIndex *index = nullptr);

// `g` with the match rewritten; new node and tensor names are fresh
// ("taso<k>"), and a result of the matched nodes that the graph uses
// further keeps its name (its new producer writes it). Throws GraphError
// when the rewritten graph does not infer (which a correct match never
// causes) or a graph output would have to be renamed.
Graph apply_match(const Graph &g, const SubstitutionMatch &m);

}  // namespace ansor_graph
