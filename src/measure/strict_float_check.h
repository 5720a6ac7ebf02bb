#pragma once
// A second look at a candidate whose output fails the comparison
// (output_check.h). Where a schedule lets them, LLVM contracts a multiply and
// an add into an FMA and Halide and LLVM reassociate float arithmetic; where
// a pipeline cancels large terms into a small result or converts a float to
// an integer, that alone can move elements past the comparison's rules.
// The candidate's schedule is compiled again with strict_float and compared,
// under the same rules, with the reference compiled with strict_float: a
// schedule that computes something else still differs there, one whose
// difference came from contraction or reassociation alone matches. Only a
// program that computes the same bits when run again is looked at so: a
// second run that differs (a race, an extern stage with a state of its own)
// leaves the first verdict standing.
#include "measure/pipeline_runner.h"

#include <string>

namespace ansor {

// "" when `candidate`'s schedule, compiled with strict_float, matches
// `strict_reference` (the reference's strict_float outputs, dense and
// concatenated in output order, as the reference's outputs are laid out)
// under output_rules(dag, tolerance) and the reference's rounding `spread`
// (same layout); else what differs there, or why it could not be run.
// Leaves `candidate`'s inputs bound as they were.
std::string strict_float_mismatch(PipelineRunner &candidate, double tolerance, const char *strict_reference,
                                  const char *spread);

// The same, with the strict_float reference computed here, only when asked:
// `reference_dag`'s pipeline with every Func at root, compiled with
// strict_float for `candidate`'s target. A reference that cannot be
// computed (the memory limit, a Halide error) is a mismatch, so the first
// verdict stands.
std::string strict_float_mismatch(PipelineRunner &candidate, const PipelineDAG &reference_dag, double tolerance,
                                  const char *spread);

// Whether two runs' outputs hold the same bits.
bool identical_outputs(const std::vector<Halide::Buffer<>> &a, const std::vector<Halide::Buffer<>> &b);

// Whether a candidate of `target` can be looked at again so: a CPU target
// this process can JIT-compile (GPU programs are checked on their device).
bool strict_float_recheck_applies(const Halide::Target &target);

}  // namespace ansor
