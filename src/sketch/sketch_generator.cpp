#include "sketch/sketch_generator.h"

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

}  // namespace

std::vector<State> generate_sketches(const SketchContext &ctx, const std::vector<SketchRulePtr> &rules) {
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

std::vector<State> generate_sketches(const SketchContext &ctx) { return generate_sketches(ctx, sketch_rules_for(ctx.target)); }

}  // namespace ansor
