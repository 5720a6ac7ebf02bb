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

// Throws InvalidState, naming the Func, where a Func the loop-nest model
// cannot represent (a scan computed per strip) holds a buffer inside a loop
// too large for the allocator to reuse: every iteration maps it afresh and
// faults in all of its pages, where a narrower strip's buffer would be
// reused from the second iteration on. The cost model does not see such a
// Func, so cannot weigh its strip width. (A modelled Func is left to the
// cost model: a few iterations of a large buffer fault in no more pages
// than the same Func at root.)
void check_unmodelled_buffers_inside_loops(const LoopNest &m);

// How many times the points `func` computes at root it computes where `model`
// has it: its region per iteration times the iterations of the loops around
// it, over its region at root (1: no point twice; a 3-row stencil's producer
// computed per row of its consumer: 3).
double recompute_factor(const LoopNest &model, const std::string &func);

// The most a place inside a consumer may recompute (recompute_factor) for a
// Func the allocator would map afresh at root to be drawn there instead.
// Faulting in a page costs about as much as computing its values a few times
// over with vector arithmetic; a scan or reduction recomputed per row or tile
// of its consumer is hundreds of times over.
constexpr double kLittleRecompute = 4;

}  // namespace ansor
