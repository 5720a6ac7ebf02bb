#pragma once
// One writer per feature group (docs/features.md, "Columns"). Each writes
// its group's columns into a statement's row `F` (all zero beforehand).
// The GPU group has no writer: its columns stay 0 on CPU.
#include "features/detail/access_analysis.h"

#include <vector>

namespace ansor {
namespace features {
namespace detail {

// Counts that grow with the problem (operations, bytes and lines moved,
// iterations, allocations) are written per kWorkPoints points of the
// pipeline's data: `work_scale` = kWorkPoints / the larger of its outputs'
// and its input buffers' points (a reduction's output can be one value). A
// model trained on small random pipelines then sees a large image's
// statements on the scale it learned; what a cache holds (footprints, reuse
// distances, buffer sizes) stays absolute.
constexpr double kWorkPoints = 1024;

// float_* / int_* / bool_op / select_op: the operations of `iters`
// iterations.
void write_arithmetic_features(const DefinitionTemplate &t, double iters, double work_scale, float *F);

// vec_* / unroll_* / parallel_*: the annotated loops of the nest.
void write_annotation_features(const LoopNest &m, const StatementNest &N, float *F);

// B0_* .. B4_*: the buffers with most bytes first. `order` is scratch.
void write_buffer_features(const std::vector<BufferSummary> &buffers, std::vector<int> &order, double work_scale,
                           float *F);

// alloc_*: the statement's Func's buffer, at its compute location.
void write_allocation_features(const ModelFunc &f, const DefinitionTemplate &t, const IterationCounts &c,
                               double work_scale, float *F);

// outer_prod, num_loops, auto_unroll_max_step.
void write_loop_summary_features(const ModelStage &stage, const IterationCounts &c, double work_scale, float *F);

// arith_intensity_curve_*: from the per-level data of AccessAnalysis.
void write_intensity_curve_features(const std::vector<double> &level_x, const std::vector<double> &level_y,
                                    float *F);

}  // namespace detail
}  // namespace features
}  // namespace ansor
