#pragma once
// SplitMix64's output function: a well-mixed 64-bit value from a seed or a
// counter. The one definition for every place that derives reproducible
// values from a seed (measurement inputs, the runner's buffers, corpus
// stage counts, graph weights).
#include <cstdint>

namespace ansor {

inline uint64_t splitmix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

}  // namespace ansor
