#pragma once
// Tile sizes: every way to pick n inner factors of an extent, memoised.
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <utility>
#include <vector>

namespace ansor {

class FactorizationMemo {
public:
    explicit FactorizationMemo(int64_t max_innermost = 64) : max_innermost_(max_innermost) {}
    // All (f1..fn) whose product divides `extent`, innermost fn <= max.
    // Extents with few divisors (primes, 2*prime) also get the factorizations
    // of the extent rounded up to a multiple of 8, split with a guarded tail.
    const std::vector<std::vector<int64_t>> &factorizations(int64_t extent, int n);
    // `exact_only`: only those whose product divides `extent` (no tail).
    std::vector<int64_t> sample(int64_t extent, int n, std::mt19937_64 &rng, bool exact_only = false);
    // A factorization drawn uniformly among those whose innermost factor is a
    // multiple of `multiple` (and, with `exact_only`, whose product divides
    // `extent`); nullopt when there is none.
    std::optional<std::vector<int64_t>> sample_innermost_multiple(int64_t extent, int n, int64_t multiple,
                                                                  std::mt19937_64 &rng, bool exact_only = false);

private:
    int64_t max_innermost_;
    std::map<std::pair<int64_t, int>, std::vector<std::vector<int64_t>>> memo_;
};

std::vector<int64_t> divisors(int64_t n);

}  // namespace ansor
