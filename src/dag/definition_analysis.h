#pragma once
// Questions the sketch rules, the loop-nest model and the features ask of a
// Func's definitions, answered on the unscheduled pipeline.
#include "dag/pipeline_dag.h"

#include <Halide.h>

#include <vector>

namespace ansor {

// `e` with the calls to the Funcs marked in `inlined` (by DAG node) replaced
// by their definitions, repeated until none is left.
Halide::Expr inline_all(const PipelineDAG &dag, Halide::Expr e, const std::vector<bool> &inlined);

// Whether an expression reads data: a call to a Func or an input buffer
// (an index that does is data-dependent).
bool reads_data(const Halide::Expr &e);

// Whether node n's value does arithmetic (more than a constant, a bare
// variable or a bare read of a Func or an input; a math call such as exp
// counts): only then does storing it save work.
bool does_arithmetic(const Node &n);

// Per pure dim of node n: whether every stage writes and reads it at its own
// pure var. A scan's serial dim is not; Halide computes such a dim whole
// wherever the Func is computed.
std::vector<bool> independent_dims(const Node &n);

}  // namespace ansor
