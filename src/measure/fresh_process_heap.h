#pragma once
// Puts this process's allocator where a fresh process running the same
// program (RunGen, a user's application) has it after the program's first
// run, whatever this process allocated before, so that the time measured
// here includes the page faults the user's process pays.
//
// glibc maps every block over its mmap threshold (128 KiB at start) and
// unmaps it when freed; freeing a mapped block of up to 32 MiB raises the
// threshold to that block's size and the trim threshold to twice it. So in
// a fresh process, after one run, the program's buffers come from the heap;
// but when a run frees more than the trim threshold at the top of the heap
// (several large buffers computed at root), glibc gives those pages back and
// the next run faults them in again, zeroed by the kernel. A process that
// allocated other things before (the tuner, a harness worker) has other
// thresholds and free blocks of its own, so the same program can run
// several times faster there than under RunGen.
#include <cstddef>

namespace ansor {

struct HeapThresholds {
    size_t mmap_bytes = 0;
    size_t trim_bytes = 0;
};

// glibc's thresholds in a fresh process once it has freed a block of
// `largest_block_bytes` (the largest the program allocates up to 32 MiB;
// 0 if none).
HeapThresholds fresh_process_thresholds_after(size_t largest_block_bytes);

// Before the first run: glibc's starting thresholds, and every free page
// of the heap given back to the kernel (so reusing it faults, as fresh
// memory does).
void start_heap_as_a_fresh_process();

// After the first run, with the largest block it allocated.
void allocate_as_a_fresh_process_after_its_first_run(size_t largest_block_bytes);

// A pipeline's allocator, laid out as Halide's default one (aligned blocks
// from malloc), that also records the largest block of up to 32 MiB asked
// for since the last reset.
void *recording_halide_malloc(size_t bytes);
void recording_halide_free(void *block);
void reset_largest_block();
size_t largest_block();

}  // namespace ansor
