#include "graph_cost.h"

#include <algorithm>
#include <vector>

namespace ansor_graph {

std::optional<KernelCost> CostChain::cost(const KernelCall &call) {
    for (KernelCostProvider *p : providers_)
        if (auto c = p->cost(call)) return c;
    return std::nullopt;
}

GraphCost graph_cost(const Graph &g, KernelCostProvider &provider) {
    GraphCost total;
    std::vector<double> ms;
    for (const KernelCall &call : lower_graph(g).calls) {
        if (call.on_weights) {
            total.load_calls++;
            continue;
        }
        std::optional<KernelCost> c = provider.cost(call);
        if (!c) throw GraphError("graph '" + g.name + "': node '" + call.node + "': no cost for kernel " + call.key());
        ms.push_back(c->ms);
        total.calls++;
        total.calls_by_source[c->source]++;
    }
    // Summed in one order whatever the calls' order, so that two graphs
    // running the same kernels cost exactly the same (a rewrite of weight
    // preparation alone is then no improvement to the search).
    std::sort(ms.begin(), ms.end());
    for (double x : ms) total.ms += x;
    return total;
}

}  // namespace ansor_graph
