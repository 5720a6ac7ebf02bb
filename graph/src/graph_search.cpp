#include "graph_search.h"

#include "graph_edit.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <queue>
#include <set>

namespace ansor_graph {

namespace {

struct Candidate {
    double cost;
    long order;  // ties go to the earlier graph, so a search is deterministic
    std::shared_ptr<const Graph> graph;
    std::shared_ptr<const std::vector<std::string>> steps;
};
struct Costlier {
    bool operator()(const Candidate &a, const Candidate &b) const {
        return a.cost != b.cost ? a.cost > b.cost : a.order > b.order;
    }
};

}  // namespace

SearchResult search_graph(const Graph &g, const std::vector<SubstitutionRule> &rules, const GraphCostFn &cost,
                          const SearchOptions &options) {
    if (!(options.alpha >= 1.0)) throw GraphError("graph search: alpha must be at least 1");
    if (!(options.noise >= 0.0 && options.noise < 0.5)) throw GraphError("graph search: noise must be in [0, 0.5)");
    SearchResult r;
    const GraphCost initial = cost(g);
    r.initial_cost = r.best_cost = initial.ms;
    r.initial_calls = r.best_calls = initial.calls;
    r.best = g;
    double cheapest = r.initial_cost;  // of every graph costed
    // Cheaper without more calls, cheaper beyond the noise, or as cheap as
    // the cheapest graph within the noise with fewer calls.
    auto better = [&](double c, int calls) {
        return (calls <= r.best_calls && c < r.best_cost) || c < r.best_cost * (1 - options.noise) ||
               (calls < r.best_calls && c <= cheapest * (1 + options.noise));
    };
    std::priority_queue<Candidate, std::vector<Candidate>, Costlier> queue;
    std::set<uint64_t> seen = {canonical_hash(g)};
    long order = 0;
    auto no_steps = std::make_shared<const std::vector<std::string>>();
    queue.push({r.initial_cost, order++, std::make_shared<const Graph>(g), no_steps});
    while (!queue.empty() && r.expanded < options.budget) {
        Candidate c = queue.top();
        queue.pop();
        // The best may have improved since this graph was queued.
        if (!(c.cost < options.alpha * r.best_cost) && c.order != 0) {
            r.pruned++;
            continue;
        }
        r.expanded++;
        // A rewritten graph: priced, compared with the best, and queued when within alpha.
        auto consider = [&](Graph next, const std::string &step) {
            if (!seen.insert(canonical_hash(next)).second) {
                r.duplicates++;
                return;
            }
            r.generated++;
            double next_cost;
            int next_calls;
            try {
                const GraphCost priced = cost(next);
                next_cost = priced.ms;
                next_calls = priced.calls;
            } catch (const std::exception &e) {
                // A kernel no provider can price (or build): the graph is dropped.
                r.failed++;
                if (options.verbose) std::fprintf(stderr, "[graph search] not costed: %s\n", e.what());
                return;
            }
            auto steps = std::make_shared<std::vector<std::string>>(*c.steps);
            steps->push_back(step);
            cheapest = std::min(cheapest, next_cost);
            if (better(next_cost, next_calls)) {
                r.best = next;
                r.best_cost = next_cost;
                r.best_calls = next_calls;
                r.steps = *steps;
                if (options.verbose)
                    std::fprintf(stderr, "[graph search] cost %.4f after %zu steps\n", next_cost, steps->size());
            }
            if (next_cost < options.alpha * r.best_cost)
                queue.push({next_cost, order++, std::make_shared<const Graph>(std::move(next)), steps});
            else
                r.pruned++;
        };
        const GraphIndex index = index_graph(*c.graph);
        for (const SubstitutionRule &rule : rules) {
            for (const SubstitutionMatch &m : find_matches(*c.graph, rule, options.matches_per_rule, &index)) {
                Graph next;
                try {
                    next = apply_match(*c.graph, m);
                } catch (const GraphError &) {
                    r.failed++;  // e.g. a graph output that would be renamed
                    continue;
                }
                consider(std::move(next), m.describe(*c.graph));
            }
        }
        if (options.layouts) {
            for (const LayoutMove &m : layout_moves(*c.graph)) {
                Graph next;
                try {
                    next = apply_layout_move(*c.graph, m);
                } catch (const GraphError &) {
                    r.failed++;
                    continue;
                }
                consider(std::move(next), m.describe(*c.graph));
            }
        }
    }
    return r;
}

}  // namespace ansor_graph
