#pragma once
// The correctness check: how a candidate's output buffer is compared with
// the reference's (docs/correctness.md gives the rules and why).
//
//   float outputs (float16, bfloat16, float32, float64), compared by value:
//     |got - want| / max(|want|, 1e-3 * max|want|) <= tolerance, where the
//     tolerance is the option's (1e-3), raised to 2 ulps of the type and to
//     8 * sqrt(K) * epsilon for a value behind a reduction of K points
//     (the rounding Halide's reassociation of a float reduction may add).
//   integer outputs: exact (64-bit ones as integers, never through double),
//     except an integer computed through float arithmetic: there an element
//     may differ by 1 (float rounding under FMA contraction or vector code
//     moves a value across a rounding boundary), on at most 5% of the
//     elements; any larger difference fails.
//   float outputs computed through a float-to-integer conversion (a LUT
//     index, a quantised level): where the conversion rounds the other way
//     the value jumps, so up to 5% of the elements may exceed the tolerance
//     by up to 10 times, a jump measured against the element's value or 5%
//     of the output's largest magnitude, whichever is larger (a step's size
//     is the range's, not the element's); any element beyond that, or more
//     elements, fail.
//   float elements the reference computes with cancellation: where the
//     reference itself moves when run rounding up or down instead of to
//     nearest (its rounding spread, pipeline_runner.h), an element may differ
//     by up to kSpreadFactor times that move, whatever the tolerance says: a
//     value that cancels big terms into a small one carries their rounding
//     noise, which no relative tolerance of the small value covers. Not for
//     outputs computed through round(), which follows the rounding mode and
//     so moves by whole steps.
//   ill-conditioned outputs (the reference's rounding spread moves some of
//     its elements past the tolerance, or an integer computed through float
//     past 1): which elements a legal schedule moves differs from those the
//     spread moves, so elements beyond the rules above are admitted by count
//     and size: at most kIllConditionedFactor times as many as the spread
//     moves, each by at most kSpreadFactor times the output's widest spread.
//     An output whose spread moves nothing is judged as above alone.
//   NaN and Inf: NaN matches NaN only, Inf the same Inf only. A reference
//     output with no finite element cannot tell right from wrong: it is
//     reported as unverifiable rather than passed.
#include "dag/pipeline_dag.h"

#include <Halide.h>

#include <string>
#include <vector>

namespace ansor {

// How one output buffer (a Func's value, or one element of a Tuple) is compared.
struct OutputRule {
    std::string name;  // "relu", or "minmax[1]" for a Tuple element
    Halide::Type type;
    // An integer value whose computation involves float arithmetic.
    bool through_float = false;
    // A float value whose computation converts a float to an integer.
    bool through_quantization = false;
    // The most points of any reduction the value depends on (1: none).
    int64_t reduction_points = 1;
    // Computed through round(), whose result follows the rounding mode: the
    // reference's rounding spread is then a whole step and admits nothing.
    bool rounds_by_mode = false;
    double tolerance = 1e-3;  // the option's relative tolerance, before the rules above raise it
};

// Share of an integer-through-float output's elements allowed to differ by 1.
// (Also the share of a float-through-quantisation output's elements
// allowed past the tolerance, by at most kQuantizationFactor times.)
constexpr double kRoundingShare = 0.05;
constexpr double kQuantizationFactor = 10;
// The share of an output's largest magnitude below which a jump is measured
// against that share instead of the element's value.
constexpr double kQuantizationFloor = 0.05;
// How many times the reference's rounding spread an element may differ by.
// Rounding up or down everywhere moves a result at least as far as
// reordering its operations to nearest does (directed errors add up, nearest
// ones partly cancel), so a few times the spread covers a reassociated or
// contracted (FMA) schedule; a dropped or doubled term moves it by the
// term's size, orders of magnitude more.
constexpr double kSpreadFactor = 4;
// An ill-conditioned reference (one whose rounding spread moves some
// elements past the tolerance, integers past 1): this many times as many
// elements as the spread moves may differ by up to kSpreadFactor times the
// output's widest spread.
constexpr double kIllConditionedFactor = 2;

// One rule per output buffer, in the order PipelineRunner::outputs() gives them.
std::vector<OutputRule> output_rules(const PipelineDAG &dag, double tolerance);

// The relative tolerance a float output gets under `rule`.
double float_tolerance(const OutputRule &rule);

struct OutputComparison {
    enum class Verdict { Match, Mismatch } verdict = Verdict::Match;
    std::string detail;  // for a mismatch: where and by how much
    double worst = 0;    // largest relative error (floats) or absolute difference (integers)
    bool ok() const { return verdict == Verdict::Match; }
};

// `want` holds the reference's elements in `got`'s layout (dense, as
// PipelineRunner allocates them); `spread`, when given, the reference's
// rounding spread in the same layout and type.
OutputComparison compare_output(const Halide::Buffer<> &got, const void *want, const OutputRule &rule,
                                const void *spread = nullptr);

// Every output of `dag` (`got`, in the order PipelineRunner::outputs()
// gives them) against the reference's outputs `want` in the same order,
// each under its output_rules(dag, tolerance) rule: the comparison the
// measurer makes, for the tools that check scheduled programs themselves.
// Strided buffers are compared compacted. Match only when every output
// matches; `worst` is the largest over the outputs; a mismatch names the
// first output that differs. `spread`, when not empty, is the reference's
// rounding_spread (pipeline_runner.h).
OutputComparison compare_outputs(const PipelineDAG &dag, const std::vector<Halide::Buffer<>> &got,
                                 const std::vector<Halide::Buffer<>> &want, double tolerance,
                                 const std::vector<Halide::Buffer<>> &spread = {});

// Why a reference output cannot verify anything ("" when it can): it holds
// no finite element (all NaN or Inf).
std::string unverifiable_reason(const Halide::Buffer<> &reference, const OutputRule &rule);

// Every Func whose values `f`'s definitions read, directly or through
// others, `f` included.
std::vector<const Node *> value_sources(const PipelineDAG &dag, int node);

}  // namespace ansor
