#include "sketch/sketch_generator.h"

#include "dag/root_region_bytes.h"
#include "state/replay_memo.h"

#include <deque>
#include <set>

namespace ansor {

namespace {

// Keeps entries 0, 2, 4, ...: the open list is in breadth-first order, so
// this drops half of every branch's partial sketches rather than whole branches.
void thin(std::deque<std::pair<State, int>> &open) {
    std::deque<std::pair<State, int>> kept;
    for (size_t i = 0; i < open.size(); i += 2) kept.push_back(std::move(open[i]));
    open = std::move(kept);
}

// Whether sketch `s` keeps node n at root.
bool at_root(const State &s, const Node &n) {
    const FuncSteps *g = s.group(n.name);
    if (!g) return true;
    for (const StepPtr &step : g->steps) {
        const Location *at = step->placement();
        if (at && at->kind != LocationKind::Root) return false;
    }
    return true;
}

// The sketches less those that keep at root a Func the loop-nest model
// cannot represent (a scan) whose buffer there the allocator maps afresh on
// every run, where other sketches compute it inside a loop: its page faults
// would dominate every run of such a program, and the cost model, which
// does not see the Func, cannot tell.
std::vector<State> without_large_unmodelled_roots(const PipelineDAG &dag, std::vector<State> sketches) {
    for (const Node &n : dag.nodes()) {
        if (n.modelled || n.is_output || !root_region_outgrows_reused_heap_blocks(n)) continue;
        std::vector<State> inside;
        for (const State &s : sketches) {
            if (!at_root(s, n)) inside.push_back(s);
        }
        if (!inside.empty()) sketches = std::move(inside);
    }
    return sketches;
}

}  // namespace

std::vector<State> generate_sketches(const SketchContext &ctx, const std::vector<SketchRulePtr> &rules) {
    ReplayMemo memo;  // every rule replays the partial sketches it is asked about
    std::vector<State> done;
    std::set<std::string> seen;
    std::deque<std::pair<State, int>> open;
    open.emplace_back(State(ctx.dag), (int)ctx.dag.nodes().size() - 1);
    while (!open.empty()) {
        auto [state, node] = open.front();
        open.pop_front();
        if (node < 0) {
            if (seen.insert(state.key()).second) done.push_back(state);
            continue;
        }
        for (const auto &rule : rules) {
            RuleResult r = rule->condition(ctx, state, node);
            if (r == RuleResult::Pass) continue;
            for (auto &succ : rule->apply(ctx, state, node)) open.push_back(std::move(succ));
            if (r == RuleResult::ApplyAndSkipRest) break;
        }
        if (open.size() > kMaxOpenSketches) thin(open);
    }
    return done;
}

std::vector<State> generate_sketches(const SketchContext &ctx) {
    return without_large_unmodelled_roots(ctx.dag, generate_sketches(ctx, sketch_rules_for(ctx.target)));
}

}  // namespace ansor
