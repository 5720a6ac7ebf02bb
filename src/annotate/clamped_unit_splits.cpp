#include "annotate/clamped_unit_splits.h"

#include "state/clamped_reads.h"
#include "state/steps.h"

#include <optional>

namespace ansor {

namespace {

const SplitStep *unit_split(const StepPtr &step) {
    const auto *split = dynamic_cast<const SplitStep *>(step.get());
    return split && product_of_factors(split->factors) == 1 ? split : nullptr;
}

}  // namespace

std::vector<bool> nodes_read_under_clamp(const PipelineDAG &dag) {
    const std::vector<bool> every_consumer_inlined(dag.nodes().size(), true);
    std::vector<bool> out(dag.nodes().size());
    for (size_t n = 0; n < out.size(); n++) {
        out[n] = overcompute_reads_past_input(dag, (int)n, every_consumer_inlined);
    }
    return out;
}

bool has_unit_split(const State &program, const std::vector<bool> &under_clamp) {
    for (const FuncSteps &g : program.groups()) {
        for (const StepPtr &step : g.steps) {
            const SplitStep *split = unit_split(step);
            if (!split) continue;
            const std::optional<int> node = program.dag().index_of(split->func());
            if (!node || under_clamp[*node]) return true;
        }
    }
    return false;
}

void check_clamped_unit_splits(const State &program, const LoopNest &m) {
    for (const FuncSteps &g : program.groups()) {
        for (const StepPtr &step : g.steps) {
            const SplitStep *split = unit_split(step);
            if (!split || !m.has(split->func())) continue;
            const ModelFunc &f = m.func(split->func());
            if (f.location.kind != LocationKind::At) continue;
            const int node = f.dag_index >= 0 ? f.dag_index : m.func(f.created_from).dag_index;
            if (node < 0) continue;
            const ModelStage &stage = m.stage(f.name, split->stage);
            const int outer = stage.find(split->piece_names().front());
            // A loop of one iteration has one extent in every tile: nothing to take apart.
            if (outer < 0 || stage.loops[outer].kind == LoopKind::Reduction || stage.loops[outer].extent <= 1) continue;
            if (!overcompute_reads_past_input(m.dag(), node, m.inlined_nodes())) continue;
            throw InvalidState("'" + f.name + "' stage " + std::to_string(split->stage) + " splits '" + split->loop +
                               "' by 1 inside '" + f.location.func +
                               "' under a clamp: Halide would bound its input reads past the region");
        }
    }
}

}  // namespace ansor
