#include "default_schedule.h"

#include <map>
#include <set>

namespace ansor_graph {

void default_schedule(Halide::Pipeline &p, const ansor::PipelineDAG &dag, int threads) {
    std::map<std::string, Halide::Internal::Function> funcs;
    std::set<std::string> outputs;
    for (Halide::Func f : p.outputs()) {
        outputs.insert(f.name());
        funcs[f.name()] = f.function();
        for (const auto &[name, fn] : Halide::Internal::find_transitive_calls(f.function())) funcs[name] = fn;
    }
    for (const auto &[name, fn] : funcs) {
        Halide::LoopLevel level = fn.schedule().compute_level();
        level.lock();  // as lowering would; nothing here changes compute levels
        if (!outputs.count(name) && !level.is_root()) continue;  // inlined
        auto index = dag.index_of(name);
        if (!index) continue;
        const auto &region = dag.node(*index).region;
        Halide::Func f(fn);
        std::vector<Halide::Var> vars = f.args();
        if (vars.size() != region.size() || vars.empty()) continue;
        if (region[0].extent >= 16) f.vectorize(vars[0], 8, Halide::TailStrategy::GuardWithIf);
        int parallel_dim = 0;
        for (int d = (int)vars.size() - 1; d >= 1 && threads > 1 && !parallel_dim; d--) {
            if (region[d].extent > 1) parallel_dim = d;
        }
        if (parallel_dim) f.parallel(vars[parallel_dim]);
        for (int u = 0; u < f.num_update_definitions(); u++) {
            // Reductions (a convolution's accumulation) loop over their
            // reduction domain innermost; moving the innermost pure
            // dimension inside it lets that one be vectorized (pure
            // dimensions are independent, so any order is correct).
            Halide::Stage stage = f.update(u);
            const auto &rvars = fn.update(u).schedule().rvars();
            if (region[0].extent >= 16 && !rvars.empty()) {
                std::vector<Halide::VarOrRVar> order = {vars[0]};
                for (const auto &rv : rvars) order.emplace_back(Halide::RVar(rv.var));
                for (size_t d = 1; d < vars.size(); d++) order.emplace_back(vars[d]);
                stage.reorder(order);
                stage.vectorize(vars[0], 8, Halide::TailStrategy::GuardWithIf);
            }
            if (parallel_dim) stage.parallel(vars[parallel_dim]);
            else if (region[0].extent < 16 || rvars.empty()) stage.unscheduled();
        }
    }
}

}  // namespace ansor_graph
