// Enumeration of every graph of up to N operators over a family's inputs,
// with fingerprints, and the candidate pairs they give.
//
// Operators are hash-consed: each distinct (operator, attributes, operands)
// is one expression with one symbolic type and one integer value, computed
// once. A graph is a set of operator expressions closed under operands;
// building graphs by adding one operator at a time over the tensors already
// present and keeping each set once enumerates every graph exactly once,
// whatever order its operators could be added in.
//
// Rules that keep the space small (as TASO does):
//  - ewadd and ewmul take their operands in one order only;
//  - enlarge applies to graph inputs only;
//  - an operator needs an operand that is not derived from constants alone
//    (enlarge excepted), and a graph never repeats an operator;
//  - a convolution's data operand depends on a tensor input and its kernel
//    on weights and constants only; relu applies to data;
//  - the results that do not fit at the fingerprint sizes (a valid
//    convolution on too small an input) are left out;
//  - only connected graphs are recorded (tensors shared through inputs
//    connect; scalars and constants do not): a disconnected pair is the
//    union of smaller ones.
// A graph's outputs are its operator results that no operator of the graph
// consumes; a graph of zero operators outputs one tensor or weight input.
//
// Fingerprint: each output's integer value at the family's fingerprint
// sizes, with its concrete shape and split tree, is hashed; the graph's
// fingerprint is the sum of mixed output hashes (independent of output
// order); scalars are -13 (see enumerate.cpp). Graphs are grouped by
// fingerprint; each graph is paired with the first (smallest) graph of its
// group, so a group of k graphs gives k - 1 candidate pairs.
#pragma once

#include "families.h"

#include <array>
#include <cstdint>
#include <vector>

namespace taso {

struct GraphRec {
    std::array<int32_t, 4> ops{};  // sorted operator expression ids (first result)
    int32_t count = 0;              // 0: the graph outputs input expression ops[0]
    uint64_t fingerprint = 0;
};

struct CandidatePair {
    PatternGraph smaller, larger;  // smaller: the group's first graph
    // outputs[i] = {output index in smaller, output index in larger}
    std::vector<std::pair<int, int>> outputs;
};

struct EnumerationResult {
    int64_t graphs = 0;               // connected graphs fingerprinted
    int64_t disconnected = 0;         // graphs built but not recorded
    int64_t expressions = 0;          // distinct operator results
    std::vector<CandidatePair> candidates;
};

class Enumerator {
public:
    explicit Enumerator(const EnumerationFamily &family);
    ~Enumerator();
    EnumerationResult run(int max_ops);

private:
    struct Impl;
    Impl *impl_;
};

}  // namespace taso
