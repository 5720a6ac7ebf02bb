#include "state/clamped_reads.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace ansor {

// An index expression bounded by a clamp (max/min, perhaps inside likely()),
// as boundary conditions write them.
static bool is_clamped(const Halide::Expr &e) {
    using namespace Halide::Internal;
    if (const Call *c = e.as<Call>()) {
        if (c->is_intrinsic(Call::likely) || c->is_intrinsic(Call::likely_if_innermost)) return is_clamped(c->args[0]);
    }
    return e.as<Max>() || e.as<Min>();
}

// Whether node `node`'s region reaches a pipeline input unclamped: it reads an
// input, or a Func that does, with an index no clamp bounds. Computing such a
// Func over more than its region reads outside the input buffer.
bool reads_input_unclamped(const PipelineDAG &dag, int node) {
    if (node < 0) return false;
    // Depth-first over unclamped calls, each node once (pyramids share producers).
    std::vector<bool> seen(dag.nodes().size(), false);
    std::vector<int> todo = {node};
    seen[node] = true;
    while (!todo.empty()) {
        const int n = todo.back();
        todo.pop_back();
        for (const StageInfo &st : dag.node(n).stages) {
            for (const CallSite &c : st.calls) {
                if (!c.args.empty() && std::all_of(c.args.begin(), c.args.end(), is_clamped)) continue;
                if (c.callee_is_input) return true;
                std::optional<int> callee = dag.index_of(c.callee);
                if (callee && !seen[*callee]) {
                    seen[*callee] = true;
                    todo.push_back(*callee);
                }
            }
        }
    }
    return false;
}

// Whether some consumer reads node `node` through a clamp (a boundary
// condition), looking through inlined consumers: fuzz seed 361's upsample
// is read plainly by an inlined Func that a boundary condition clamps.
bool read_through_clamp(const PipelineDAG &dag, int node, const std::vector<bool> &inlined) {
    if (node < 0) return false;
    std::vector<bool> seen(dag.nodes().size(), false);
    std::vector<int> todo = {node};
    seen[node] = true;
    while (!todo.empty()) {
        const Node &n = dag.node(todo.back());
        todo.pop_back();
        for (int k : n.consumers) {
            for (const StageInfo &st : dag.node(k).stages) {
                for (const CallSite &c : st.calls) {
                    if (c.callee != n.name) continue;
                    if (!c.args.empty() && std::all_of(c.args.begin(), c.args.end(), is_clamped)) return true;
                    if (k < (int)inlined.size() && inlined[k] && !seen[k]) {
                        seen[k] = true;
                        todo.push_back(k);
                    }
                }
            }
        }
    }
    return false;
}

bool overcompute_reads_past_input(const PipelineDAG &dag, int node, const std::vector<bool> &inlined) {
    return read_through_clamp(dag, node, inlined) && reads_input_unclamped(dag, node);
}

}  // namespace ansor
