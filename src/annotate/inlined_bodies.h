#pragma once
// How large the search lets inlining make one Func's body. Halide 14 takes
// minutes to compile a body in which many calls read through a boundary
// condition's clamps (fuzz seeds 70 and 105: a 7-tap stencil of an edge
// Func over an inlined 5x5 stencil, 322 such calls; 161 past 50 s, with the
// edge Func's input at root 46 in 6 s), and the search's own inlining limit
// can be passed when a Func placed early is inlined into a producer the
// sketch inlines later. Drawn programs (annotate, mutations, crossover) are
// checked whole here; programs from logs or users replay as they were.
#include "dag/pipeline_dag.h"

#include <vector>

namespace ansor {

// Per DAG node: whether its definitions clamp with `likely` (what Halide's
// boundary conditions emit).
std::vector<bool> boundary_condition_nodes(const PipelineDAG &dag);

// The calls in node i's body, its `inlined` producers substituted, that
// read through a clamp of a boundary condition: every call of a boundary
// node's own body, and those of the boundary nodes inlined into it.
int64_t calls_through_boundaries(const PipelineDAG &dag, int i, const std::vector<bool> &inlined,
                                 const std::vector<bool> &boundary);

// The most calls through boundary clamps the search leaves in one body: a
// 3x3 stencil of a 3x3 stencil over an edge Func holds 81, a 7x7 stencil 49.
constexpr int64_t kMaxCallsThroughBoundaries = 128;

// Throws InvalidState naming the first Func whose body, with the `inlined`
// nodes substituted, holds more than PipelineDAG::kMaxCallsInlinedBySearch
// calls or more than kMaxCallsThroughBoundaries calls through boundary clamps.
void check_inlined_bodies(const PipelineDAG &dag, const std::vector<bool> &inlined, const std::vector<bool> &boundary);

}  // namespace ansor
