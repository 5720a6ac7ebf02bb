#pragma once
// Canonical names for what Halide names per process. A Func is "matmul" in
// one process and "matmul$1" in the next (or carries another name the user
// chose); unnamed Vars and RDoms draw from process-wide counters. Tuning
// records must outlive those names, so they speak of:
//   Funcs  f0, f1, ...  numbered by the pipeline's structure alone: a
//          depth-first walk from the outputs that visits callees in the order
//          their calls first appear in the definitions, producers numbered
//          first (so f<last> is the last output reached);
//   loops  per Func, v<i> for pure Vars (the pure arguments by position
//          first) and r<i> for RVars, numbered in the order the definitions
//          (pure, then updates) list them.
// Equal structure gives equal canonical names, whatever the real names are.
#include "dag/pipeline_dag.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ansor {

class CanonicalNames {
public:
    explicit CanonicalNames(const PipelineDAG &dag);

    // Funcs in canonical order (index = canonical id), by this process's names.
    const std::vector<std::string> &funcs() const { return funcs_; }
    std::optional<int> func_id(const std::string &name) const;

    // "matmul$1" -> "f3"; an rfactor intermediate of "matmul$1" -> the
    // intermediate name of "f3" (intermediate_name in state/loop_nest.h).
    // nullopt for a name this pipeline does not have.
    std::optional<std::string> canonical_func(const std::string &name) const;
    // The inverse: "f3" -> this process's name.
    std::optional<std::string> actual_func(const std::string &canonical) const;

    // The Vars and RVars of a Func's definitions (this process's names) to
    // their canonical names. Empty for a name that is not a pipeline Func.
    const std::map<std::string, std::string> &loop_names(const std::string &func) const;

private:
    std::vector<std::string> funcs_;
    std::map<std::string, int> ids_;
    std::map<std::string, std::map<std::string, std::string>> loops_;
};

// The definitions of a Func as one list: the pure definition, then every
// update, each followed by its specializations (depth first).
std::vector<Halide::Internal::Definition> all_definitions(const Halide::Internal::Function &f);

// Every expression a definition consists of, in a fixed order: arguments,
// values, predicate, then each RVar's min and extent.
std::vector<Halide::Expr> definition_parts(const Halide::Internal::Definition &def);

}  // namespace ansor
