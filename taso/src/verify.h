// Z3 verification of a candidate substitution: both graphs become terms
// over the same input constants; the pair is proved when the axioms
// (axioms.h) and the inputs' sizes make "some corresponding outputs differ"
// unsatisfiable within the time limit. Anything else (sat, unknown,
// timeout) leaves the pair unproved.
#pragma once

#include "axioms.h"
#include "pattern_graph.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace taso {

struct VerifyOptions {
    unsigned timeout_ms = 2000;
    // Test hook: axioms added to the operator properties (e.g. a wrong one,
    // to show that the fingerprint check still catches what it proves).
    std::vector<Axiom> extra_axioms;
};

class Verifier {
public:
    explicit Verifier(VerifyOptions options = {});
    ~Verifier();
    // outputs[i] = {output index in a, output index in b} that must be equal.
    bool prove_equal(const InputFamily &family, const PatternGraph &a, const PatternGraph &b,
                     const std::vector<std::pair<int, int>> &outputs);
    // The operator axioms' names, in order (for reports and docs).
    std::vector<std::string> axiom_names() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace taso
