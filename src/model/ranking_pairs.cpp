#include "model/ranking_pairs.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <unordered_map>

namespace ansor {

namespace {

// A group's share of the pairwise loss under `weighting`, for a group of
// `programs` programs (before normalising over the groups).
double group_share(PackSumParams::PairWeighting weighting, size_t programs) {
    switch (weighting) {
    case PackSumParams::PairWeighting::Pairs: return (double)programs * (programs - 1) / 2;
    case PackSumParams::PairWeighting::Programs: return (double)programs;
    case PackSumParams::PairWeighting::Pipelines: return 1.0;
    }
    return 1.0;
}

}  // namespace

PairList ordered_pairs(const std::vector<float> &y, const std::vector<int> &groups, size_t max_pairs, uint64_t seed,
                       PackSumParams::PairWeighting weighting) {
    std::map<int, std::vector<uint32_t>> members;
    for (size_t i = 0; i < y.size(); i++) members[groups[i]].push_back((uint32_t)i);
    auto ordered = [&](uint32_t a, uint32_t b) {
        return y[a] > y[b] ? OrderedPair{a, b, y[a] - y[b]} : OrderedPair{b, a, y[b] - y[a]};
    };
    size_t all = 0;
    for (const auto &kv : members) all += kv.second.size() * (kv.second.size() - 1) / 2;
    PairList pairs;
    if (all <= max_pairs) {
        // Per group: where its pairs start, and its weight multiplier.
        std::vector<std::pair<size_t, double>> group_multiplier;
        double total_share = 0;
        for (const auto &kv : members) {
            const std::vector<uint32_t> &m = kv.second;
            const size_t first = pairs.size();
            for (size_t a = 0; a < m.size(); a++) {
                for (size_t b = 0; b < a; b++) {
                    if (y[m[a]] != y[m[b]]) pairs.push_back(ordered(m[a], m[b]));
                }
            }
            const size_t count = pairs.size() - first;
            if (count == 0) continue;
            const double share = group_share(weighting, m.size());
            group_multiplier.push_back({first, share / (double)count});
            total_share += share;
        }
        if (weighting == PackSumParams::PairWeighting::Pairs || pairs.empty()) return pairs;
        // Scaled so that the multipliers average 1 over all pairs.
        const double scale = (double)pairs.size() / total_share;
        for (size_t g = 0; g < group_multiplier.size(); g++) {
            const size_t end = g + 1 < group_multiplier.size() ? group_multiplier[g + 1].first : pairs.size();
            for (size_t i = group_multiplier[g].first; i < end; i++) {
                pairs[i].weight *= (float)(scale * group_multiplier[g].second);
            }
        }
        return pairs;
    }
    // Draw each pair's group in proportion to its share, then two of its members.
    std::vector<const std::vector<uint32_t> *> group_members;
    std::vector<double> shares;
    for (const auto &kv : members) {
        if (kv.second.size() < 2) continue;
        group_members.push_back(&kv.second);
        shares.push_back(group_share(weighting, kv.second.size()));
    }
    std::mt19937_64 rng(seed);
    std::discrete_distribution<size_t> which_group(shares.begin(), shares.end());
    pairs.reserve(max_pairs);
    for (size_t draws = 0; pairs.size() < max_pairs && draws < 4 * max_pairs; draws++) {
        const std::vector<uint32_t> &m = *group_members[which_group(rng)];
        std::uniform_int_distribution<size_t> member(0, m.size() - 1);
        const uint32_t a = m[member(rng)], b = m[member(rng)];
        if (y[a] != y[b]) pairs.push_back(ordered(a, b));
    }
    return pairs;
}

std::vector<float> rank_swap_weights(const PairList &pairs, const std::vector<double> &scores,
                                     const std::vector<int> &groups) {
    // Dense group numbers, then each group's programs ranked by score.
    std::unordered_map<int, uint32_t> dense;
    std::vector<uint32_t> group_of(scores.size());
    std::vector<std::vector<uint32_t>> members;
    for (size_t i = 0; i < scores.size(); i++) {
        auto it = dense.emplace(groups[i], (uint32_t)members.size()).first;
        if (it->second == members.size()) members.emplace_back();
        group_of[i] = it->second;
        members[it->second].push_back((uint32_t)i);
    }
    std::vector<double> discount(scores.size(), 0.0);
    for (std::vector<uint32_t> &m : members) {
        std::stable_sort(m.begin(), m.end(), [&](uint32_t a, uint32_t b) { return scores[a] > scores[b]; });
        for (size_t r = 0; r < m.size(); r++) discount[m[r]] = 1 / std::log2(2.0 + (double)r);
    }
    std::vector<float> weights(pairs.size());
    std::vector<double> total(members.size(), 0.0);
    std::vector<size_t> count(members.size(), 0);
    for (size_t i = 0; i < pairs.size(); i++) {
        const double w = std::fabs(discount[pairs[i].faster] - discount[pairs[i].slower]);
        weights[i] = (float)w;
        total[group_of[pairs[i].faster]] += w;
        count[group_of[pairs[i].faster]]++;
    }
    for (size_t i = 0; i < pairs.size(); i++) {
        const uint32_t g = group_of[pairs[i].faster];
        weights[i] = total[g] > 0 ? (float)(weights[i] * (double)count[g] / total[g]) : 1.f;
    }
    return weights;
}

}  // namespace ansor
