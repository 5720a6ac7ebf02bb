// Questions asked of a built DAG: a stage's points, and what inlining some
// Funcs does to the graph (how often a Func is called once others are
// inlined into it, and who consumes it then).
#include "dag/pipeline_dag.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace ansor {

int64_t StageInfo::space_points() const {
    int64_t p = 1;
    for (const auto &l : loops) {
        if (l.kind == LoopKind::Space) p *= std::max<int64_t>(1, l.extent);
    }
    return p;
}

int64_t StageInfo::reduction_points() const {
    int64_t p = 1;
    for (const auto &l : loops) {
        if (l.kind == LoopKind::Reduction) p *= std::max<int64_t>(1, l.extent);
    }
    return p;
}

bool StageInfo::has_reduction() const {
    return std::any_of(loops.begin(), loops.end(),
                       [](const StageLoop &l) { return l.kind == LoopKind::Reduction; });
}

int64_t PipelineDAG::calls_of(int i, const std::vector<bool> &inlined, std::vector<int64_t> &memo) const {
    if (memo[i] >= 0) return memo[i];
    const int64_t cap = int64_t(1) << 50;  // saturate: chains of stencils overflow quickly
    int64_t total = 0;
    for (const auto &kv : nodes_[i].call_counts) {
        const bool substituted = kv.first >= 0 && kv.first < (int)inlined.size() && inlined[kv.first];
        const int64_t each = substituted ? calls_of(kv.first, inlined, memo) : 1;
        total = std::min(cap, total + std::min(cap / std::max<int64_t>(each, 1), kv.second) * each);
    }
    return memo[i] = total;
}

int64_t PipelineDAG::largest_inlined_call_count(const std::vector<bool> &inlined) const {
    std::vector<int64_t> memo(nodes_.size(), -1);
    int64_t largest = 0;
    for (size_t i = 0; i < nodes_.size(); i++) {
        if (i >= inlined.size() || !inlined[i]) largest = std::max(largest, calls_of((int)i, inlined, memo));
    }
    return largest;
}

int64_t PipelineDAG::inlined_call_count(int i, const std::vector<bool> &inlined) const {
    if (i < 0 || i >= (int)nodes_.size()) throw std::out_of_range("PipelineDAG::inlined_call_count: no node " + std::to_string(i));
    // Only i and the inlined producers it reaches are visited.
    std::vector<int64_t> memo(nodes_.size(), -1);
    return calls_of(i, inlined, memo);
}

std::vector<bool> PipelineDAG::inlined_into(int i, const std::vector<bool> &inlined) const {
    std::vector<bool> out(nodes_.size(), false);
    std::vector<int> pending{i};
    while (!pending.empty()) {
        int n = pending.back();
        pending.pop_back();
        for (int p : nodes_[n].producers) {
            if (p < (int)inlined.size() && inlined[p] && !out[p]) {
                out[p] = true;
                pending.push_back(p);
            }
        }
    }
    return out;
}

int PipelineDAG::inlined_widest_value_bytes(int i, const std::vector<bool> &inlined) const {
    int bytes = nodes_[i].widest_value_bytes;
    const std::vector<bool> in_i = inlined_into(i, inlined);
    for (size_t k = 0; k < in_i.size(); k++) {
        if (in_i[k]) bytes = std::max(bytes, nodes_[k].widest_value_bytes);
    }
    return bytes;
}

std::vector<int> PipelineDAG::effective_consumers(int i, const std::vector<bool> &inlined) const {
    std::vector<int> out;
    for (int c : nodes_[i].consumers) {
        if (c < (int)inlined.size() && inlined[c]) {
            for (int cc : effective_consumers(c, inlined)) out.push_back(cc);
        } else {
            out.push_back(c);
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::optional<int> PipelineDAG::fusible_consumer(int i, const std::vector<bool> &inlined) const {
    const Node &n = nodes_[i];
    if (n.is_output || !n.modelled) return std::nullopt;
    std::vector<int> cs = effective_consumers(i, inlined);
    if (cs.size() != 1) return std::nullopt;
    const Node &c = nodes_[cs[0]];
    if (!c.modelled || c.stages.size() != 1) return std::nullopt;
    // Every path from i to c must be elementwise.
    std::function<bool(int, int)> identity_path = [&](int from, int to) {
        const Node &dst = nodes_[to];
        bool any = false;
        for (const auto &call : dst.stages[0].calls) {
            auto src = index_of(call.callee);
            if (!src) continue;
            bool reaches = *src == from || (inlined[*src] && identity_path(from, *src));
            if (!reaches) continue;
            if (!call.is_identity) return false;
            any = true;
        }
        return any;
    };
    if (!identity_path(i, cs[0])) return std::nullopt;
    if (c.pure_args.size() != n.pure_args.size()) return std::nullopt;
    return cs[0];
}

}  // namespace ansor
