#include "annotate/inlined_bodies.h"

#include "state/loop_nest.h"

#include <algorithm>
#include <string>

namespace ansor {

namespace {

bool holds_likely(const Halide::Expr &e) {
    using namespace Halide::Internal;
    class Find : public IRVisitor {
    public:
        bool found = false;

    private:
        using IRVisitor::visit;
        void visit(const Call *op) override {
            found = found || op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::likely_if_innermost);
            IRVisitor::visit(op);
        }
    } f;
    e.accept(&f);
    return f.found;
}

constexpr int64_t kSaturated = int64_t(1) << 50;

int64_t through_boundaries(const PipelineDAG &dag, int i, const std::vector<bool> &inlined,
                           const std::vector<bool> &boundary, std::vector<int64_t> &memo) {
    if (memo[i] >= 0) return memo[i];
    if (boundary[i]) return memo[i] = dag.inlined_call_count(i, inlined);
    int64_t total = 0;
    for (const auto &[callee, count] : dag.node(i).call_counts) {
        if (callee < 0 || callee >= (int)inlined.size() || !inlined[callee]) continue;
        const int64_t each = through_boundaries(dag, callee, inlined, boundary, memo);
        if (each == 0) continue;
        total = std::min(kSaturated, total + std::min(kSaturated / each, count) * each);
    }
    return memo[i] = total;
}

}  // namespace

std::vector<bool> boundary_condition_nodes(const PipelineDAG &dag) {
    std::vector<bool> out;
    for (const Node &n : dag.nodes()) {
        bool likely = false;
        if (!n.func.has_extern_definition()) {
            std::vector<Halide::Internal::Definition> defs{n.func.definition()};
            for (const auto &u : n.func.updates()) defs.push_back(u);
            for (const auto &d : defs) {
                for (const auto &e : d.values()) likely = likely || holds_likely(e);
                for (const auto &e : d.args()) likely = likely || holds_likely(e);
            }
        }
        out.push_back(likely);
    }
    return out;
}

int64_t calls_through_boundaries(const PipelineDAG &dag, int i, const std::vector<bool> &inlined,
                                 const std::vector<bool> &boundary) {
    std::vector<int64_t> memo(dag.nodes().size(), -1);
    return through_boundaries(dag, i, inlined, boundary, memo);
}

void check_inlined_bodies(const PipelineDAG &dag, const std::vector<bool> &inlined, const std::vector<bool> &boundary) {
    std::vector<int64_t> memo(dag.nodes().size(), -1);
    for (int i = 0; i < (int)dag.nodes().size(); i++) {
        if (i < (int)inlined.size() && inlined[i]) continue;
        const int64_t calls = dag.inlined_call_count(i, inlined);
        if (calls > PipelineDAG::kMaxCallsInlinedBySearch) {
            throw InvalidState("'" + dag.node(i).name + "' holds " + std::to_string(calls) +
                               " calls once its producers are inlined, over the search's " +
                               std::to_string(PipelineDAG::kMaxCallsInlinedBySearch));
        }
        const int64_t clamped = through_boundaries(dag, i, inlined, boundary, memo);
        if (clamped > kMaxCallsThroughBoundaries) {
            throw InvalidState("'" + dag.node(i).name + "' holds " + std::to_string(clamped) +
                               " calls through boundary clamps once its producers are inlined, over the search's " +
                               std::to_string(kMaxCallsThroughBoundaries));
        }
    }
}

}  // namespace ansor
