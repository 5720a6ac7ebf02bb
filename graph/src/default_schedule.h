// The schedule a kernel gets when the tuning log has no record for it: on
// top of every Func at root, in each Func computed at root (and the
// outputs), the outermost dimension with more than one point parallel and
// the innermost vectorized (in an update, such as a convolution's
// accumulation, moved inside the reduction loops first). The executor runs
// untuned kernels with it, and the graph cost's measured tier times it.
#pragma once

#include "dag/pipeline_dag.h"

#include <Halide.h>

namespace ansor_graph {

void default_schedule(Halide::Pipeline &p, const ansor::PipelineDAG &dag, int threads);

}  // namespace ansor_graph
