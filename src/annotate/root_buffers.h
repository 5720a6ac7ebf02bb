#pragma once
// Whether a Func computed at root would write a buffer the last-level cache
// cannot hold. Such a buffer goes to memory and back: its consumer reads it
// after the whole of it is written, and a fresh allocation of that size
// faults in every page on each run. The cost model is trained on pipelines
// whose intermediates all fit in the cache, so it cannot rank that cost: the
// annotator draws another location (inline or a consumer's loop) for such a
// Func where one is legal, as Halide's hand schedules compute full-size
// intermediates per strip or tile of their consumer.
#include "state/loop_nest.h"

#include <cstdint>
#include <string>

namespace ansor {

// Bytes of `func`'s buffer at root: its region there times the bytes of one
// value (all of a Tuple's elements).
int64_t root_buffer_bytes(const LoopNest &model, const std::string &func);

// Whether that buffer is larger than `last_level_cache_bytes` (0: unknown,
// never).
bool root_buffer_exceeds_cache(const LoopNest &model, const std::string &func, int64_t last_level_cache_bytes);

}  // namespace ansor
