#pragma once
// The cost of a graph for the graph optimiser: the sum, over the kernel
// calls its lowering makes per run (op_lowering.h), of each (generator, params)
// kernel's time in milliseconds, asked of a chain of providers in turn
// (kernel_cost_tiers.h has the tuning log's and the measured default
// schedule's; tests use a fake one).
#include "op_lowering.h"

#include <memory>
#include <optional>

namespace ansor_graph {

struct KernelCost {
    double ms = 0;
    std::string source;  // which provider answered ("log", "measured", ...)
};

class KernelCostProvider {
public:
    virtual ~KernelCostProvider() = default;
    // The kernel's time, or nothing when this provider does not know it.
    virtual std::optional<KernelCost> cost(const KernelCall &call) = 0;
};

// Asks each provider in order; the first answer wins.
class CostChain : public KernelCostProvider {
public:
    void add(KernelCostProvider *p) { providers_.push_back(p); }
    std::optional<KernelCost> cost(const KernelCall &call) override;

private:
    std::vector<KernelCostProvider *> providers_;
};

struct GraphCost {
    double ms = 0;
    int calls = 0;
    std::map<std::string, int> calls_by_source;  // how many calls each provider priced
    int load_calls = 0;  // calls on weights only (KernelCall::on_weights): made once at load, not priced
};

// A call on weights only is not priced: the executor makes it once when it
// binds the weights, so it costs nothing per run. Throws GraphError naming
// the node and the kernel when no provider knows a call.
GraphCost graph_cost(const Graph &g, KernelCostProvider &provider);

}  // namespace ansor_graph
