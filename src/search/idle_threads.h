#pragma once
// Whether a CPU program leaves the machine's threads idle on its bulk of
// work: a stage of a Func at root that holds a large share of the root
// stages' iterations runs fewer parallel iterations than there are threads. Tile sizes that evolution grows past
// a loop's extent can leave a parallel loop of extent 1, and a cost model
// that rarely saw such programs may still rank them first; the zero-shot
// choice takes them only when every finalist is like that.
#include "state/loop_nest.h"

#include <string>

namespace ansor {

// Empty if `nest` keeps `parallelism` threads busy (or has too little work
// for it to matter), else why not, for the schedule's note.
std::string idle_threads(const LoopNest &nest, int parallelism);

}  // namespace ansor
