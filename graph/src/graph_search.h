#pragma once
// TASO's cost-based backtracking search over substituted graphs (Jia et
// al., SOSP 2019, Algorithm 2): a priority queue of graphs ordered by cost;
// the cheapest is taken out and every match of every rule applied to it;
// each new graph (deduplicated by canonical_hash) that costs less than
// alpha x the best cost so far is queued, so the search may pass through a
// graph somewhat worse than the best on its way to a better one. The
// search ends when the queue is empty or `budget` graphs have been
// expanded, and returns the cheapest graph seen (the input when nothing is
// cheaper), where costs within `noise` of each other are a tie that goes to
// the graph making fewer kernel calls per run. With `layouts`, the moves of
// layout_moves.h are tried on every expanded graph besides the rules.
//
// Why the tie: the costs are measured kernel times, no more precise than
// about a percent. Without it, a rewrite that adds a kernel call (a relu
// taken out of its layer) wins whenever the noise on the layer's time
// exceeds the relu's, and one that removes a call (the relu fused back)
// loses as often.
#include "graph_cost.h"
#include "layout_moves.h"
#include "substitution_match.h"

#include <functional>

namespace ansor_graph {

struct SearchOptions {
    double alpha = 1.05;
    int budget = 100;             // graphs expanded at most
    size_t matches_per_rule = 64;  // matches of one rule tried per graph
    bool verbose = false;         // a line per improvement on stderr
    // Costs this fraction apart or closer are a tie (fewer kernel calls
    // win); the best is never above the cheapest graph seen by more.
    double noise = 0.01;
    // Layout moves (layout_moves.h) besides the rules: each node's data
    // layout becomes part of the search.
    bool layouts = false;
};

struct SearchResult {
    Graph best;
    double initial_cost = 0, best_cost = 0;
    int initial_calls = 0, best_calls = 0;  // kernel calls per run (weight preparation left out)
    std::vector<std::string> steps;  // the substitutions and layout moves that lead from the input to `best`
    // failed: rewrites refused by apply_match, or new graphs the cost function threw for (dropped).
    int expanded = 0, generated = 0, duplicates = 0, pruned = 0, failed = 0;
};

// The graph's cost and its kernel calls per run (graph_cost.h).
using GraphCostFn = std::function<GraphCost(const Graph &)>;

SearchResult search_graph(const Graph &g, const std::vector<SubstitutionRule> &rules, const GraphCostFn &cost,
                          const SearchOptions &options = {});

}  // namespace ansor_graph
