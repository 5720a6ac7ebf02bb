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

// The arithmetic an expression evaluates, each occurrence counted (a let's
// value once): additions, products, comparisons and selects count 1;
// divisions, remainders and math calls such as exp count
// kCostlyOperationWeight (several cycles each, and no vector integer
// division on x86). Reads and casts are free.
constexpr int64_t kCostlyOperationWeight = 4;
int64_t arithmetic_cost(const Halide::Expr &e);

// The arithmetic cost of one value of node n (all its values), with the
// strictly inlinable Funcs it reads inlined as always_inline would.
int64_t value_cost(const PipelineDAG &dag, const Node &n);

// Whether one value of node n (with the strictly inlinable Funcs it reads
// inlined, as value_cost) calls a math function such as exp or pow: tens of
// vector instructions per lane, more than a table read costs.
bool makes_math_call(const PipelineDAG &dag, const Node &n);

// Cost (value_cost) from which a value that a consumer reads at one point
// across one of its loops is never inlined into it, so never recomputed for
// each iteration of that loop: four additions or products, or one division
// or math call. Recomputing unsharp mask's ratio for each colour channel, or
// non-local means' exp(-patch) for each of four sums, cannot beat storing
// it once, and a model that has not seen such a pipeline may still rank
// the recomputation first.
constexpr int64_t kCostNeverRecomputed = 4;

// Points of node n's region at root (its estimated extents' product).
int64_t region_points(const Node &n);

// Whether node i is read at every step of a serial reduction: an update
// with no pure loop (a histogram's scatter, `hist(luma(r.x, r.y)) += 1`,
// which Halide runs as one scalar loop on one thread) whose reduction has
// at least as many points as node i. Computed inside that loop, node i's
// arithmetic runs a scalar at a time; computed ahead, vectorised.
bool is_serial_reduction_operand(const PipelineDAG &dag, int i);

// Per pure dim of node n: whether every stage writes and reads it at its own
// pure var. A scan's serial dim is not; Halide computes such a dim whole
// wherever the Func is computed.
std::vector<bool> independent_dims(const Node &n);

}  // namespace ansor
