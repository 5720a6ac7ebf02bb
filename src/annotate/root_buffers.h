#pragma once
// The size of a Func's whole buffer at root: what computing it there writes
// to memory and reads back when the last-level cache cannot hold it. The
// cost model's training pipelines never hold a buffer that large, so
// `ansor_app_sketches` prints it per Func to show where an app leaves that
// range.
#include "state/loop_nest.h"

#include <cstdint>
#include <string>

namespace ansor {

// Bytes of `func`'s buffer at root, wherever `model` computes it: its region
// there times the bytes of one value (all of a Tuple's elements).
int64_t root_buffer_bytes(const LoopNest &model, const std::string &func);

// Whether `func`'s buffer at root is too large for the allocator to reuse
// between runs (util/memory_size.h): at root, every run of the program would
// fault in all of its pages again. The cost model never saw such a buffer.
bool root_buffer_mapped_each_run(const LoopNest &model, const std::string &func);

}  // namespace ansor
