#pragma once
// The distinct kernels of a graph as an ansor_tune_tasks task file
// (docs/tuning_networks.md): one task per distinct (generator, params),
// weighted by how many kernel calls a whole-network run makes of it (calls
// on weights only, made once at load, are not tasks), so that
// `ansor_tune_tasks --tasks <this>` tunes the graph and
// `ansor_network_run --graph G --log <that log>` runs it tuned.
#include "op_lowering.h"

namespace ansor_graph {

nlohmann::json task_file_of(const Graph &g);

}  // namespace ansor_graph
