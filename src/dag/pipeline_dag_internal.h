#pragma once
// Helpers the PipelineDAG's construction shares between pipeline_dag.cpp and
// stage_analysis.cpp.
#include <Halide.h>

#include <vector>

namespace ansor {

// `e` with scalar Params and buffer-shape variables replaced by their
// estimates (a constant constraint winning), simplified.
Halide::Expr with_estimates(const Halide::Expr &e);

// A definition's arguments, values and predicate (where it has one).
std::vector<Halide::Expr> definition_exprs(const Halide::Internal::Definition &def);

}  // namespace ansor
