#include "graph_cost.h"

namespace ansor_graph {

std::optional<KernelCost> CostChain::cost(const KernelCall &call) {
    for (KernelCostProvider *p : providers_)
        if (auto c = p->cost(call)) return c;
    return std::nullopt;
}

GraphCost graph_cost(const Graph &g, KernelCostProvider &provider) {
    GraphCost total;
    for (const KernelCall &call : lower_graph(g).calls) {
        if (call.on_weights) {
            total.load_calls++;
            continue;
        }
        std::optional<KernelCost> c = provider.cost(call);
        if (!c) throw GraphError("graph '" + g.name + "': node '" + call.node + "': no cost for kernel " + call.key());
        total.ms += c->ms;
        total.calls++;
        total.calls_by_source[c->source]++;
    }
    return total;
}

}  // namespace ansor_graph
