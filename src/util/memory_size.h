#pragma once
// Memory sizes as options give them ("8G", "512M", "1048576") and the
// machine's physical memory, for the candidates' memory limit.
#include <cstdint>
#include <string>

namespace ansor {

// glibc's largest mmap threshold on 64-bit (DEFAULT_MMAP_THRESHOLD_MAX): a
// block larger than this is mapped afresh by every malloc and unmapped by its
// free, so a program that allocates one on each run faults in every page of
// it on each run, however often it ran before.
constexpr uint64_t kLargestReusedHeapBlockBytes = uint64_t(32) << 20;

// The machine's physical memory in bytes (0 if the system does not say).
uint64_t physical_memory_bytes();

// The default memory limit of a candidate process: half the physical memory.
uint64_t default_memory_limit_bytes();

// "<integer>[K|M|G|T]" (binary multiples, case-insensitive, an optional
// trailing "B" or "iB") in bytes. Throws UserError naming `name` otherwise.
uint64_t parse_memory_size(const std::string &name, const std::string &text);

// Bytes as the largest binary unit that keeps one decimal ("1.5 GiB").
std::string memory_size_text(uint64_t bytes);

}  // namespace ansor
