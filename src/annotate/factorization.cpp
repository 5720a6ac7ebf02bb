#include <algorithm>
#include "annotate/factorization.h"

#include <functional>

namespace ansor {

std::vector<int64_t> divisors(int64_t n) {
    std::vector<int64_t> d;
    for (int64_t i = 1; i * i <= n; i++) {
        if (n % i) continue;
        d.push_back(i);
        if (i != n / i) d.push_back(n / i);
    }
    std::sort(d.begin(), d.end());
    return d;
}

const std::vector<std::vector<int64_t>> &FactorizationMemo::factorizations(int64_t extent, int n) {
    auto key = std::make_pair(extent, n);
    auto it = memo_.find(key);
    if (it != memo_.end()) return it->second;
    std::vector<std::vector<int64_t>> out;
    std::vector<int64_t> cur;
    auto enumerate = [&](int64_t e) {
        std::function<void(int64_t)> rec = [&](int64_t remaining) {
            if ((int)cur.size() == n) {
                if (cur.back() <= max_innermost_) out.push_back(cur);
                return;
            }
            for (int64_t f : divisors(remaining)) {
                cur.push_back(f);
                rec(remaining / f);
                cur.pop_back();
            }
        };
        rec(e);
    };
    if (n == 0) {
        out.push_back({});
    } else {
        enumerate(std::max<int64_t>(1, extent));
        if (extent > 16 && divisors(extent).size() <= 4) {
            size_t exact = out.size();
            enumerate((extent + 7) / 8 * 8);
            // Keep only the padded choices that are not already exact.
            std::vector<std::vector<int64_t>> merged(out.begin(), out.begin() + exact);
            for (size_t i = exact; i < out.size(); i++) {
                int64_t p = 1;
                for (int64_t f : out[i]) p *= f;
                if (extent % p) merged.push_back(out[i]);
            }
            out = merged;
        }
    }
    return memo_[key] = out;
}

namespace {

bool divides(const std::vector<int64_t> &factors, int64_t extent) {
    int64_t p = 1;
    for (int64_t f : factors) p *= f;
    return p > 0 && std::max<int64_t>(1, extent) % p == 0;
}

}  // namespace

std::vector<int64_t> FactorizationMemo::sample(int64_t extent, int n, std::mt19937_64 &rng, bool exact_only) {
    const auto &all = factorizations(extent, n);
    if (exact_only) {
        std::vector<const std::vector<int64_t> *> exact;
        for (const auto &f : all) {
            if (divides(f, extent)) exact.push_back(&f);
        }
        if (exact.empty()) return std::vector<int64_t>(n, 1);
        return *exact[std::uniform_int_distribution<size_t>(0, exact.size() - 1)(rng)];
    }
    if (all.empty()) return std::vector<int64_t>(n, 1);
    std::uniform_int_distribution<size_t> pick(0, all.size() - 1);
    return all[pick(rng)];
}

std::optional<std::vector<int64_t>> FactorizationMemo::sample_innermost_multiple(int64_t extent, int n,
                                                                                int64_t multiple,
                                                                                std::mt19937_64 &rng,
                                                                                bool exact_only) {
    if (n == 0 || multiple < 1) return std::nullopt;
    std::vector<const std::vector<int64_t> *> fitting;
    for (const auto &f : factorizations(extent, n)) {
        if (f.back() % multiple == 0 && (!exact_only || divides(f, extent))) fitting.push_back(&f);
    }
    if (fitting.empty()) return std::nullopt;
    return *fitting[std::uniform_int_distribution<size_t>(0, fitting.size() - 1)(rng)];
}

}  // namespace ansor
