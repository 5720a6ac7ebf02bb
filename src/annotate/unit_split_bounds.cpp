#include "annotate/unit_split_bounds.h"

#include "state/clamped_reads.h"
#include "state/steps.h"

#include <optional>

namespace ansor {

namespace {

const SplitStep *unit_split(const StepPtr &step) {
    const auto *split = dynamic_cast<const SplitStep *>(step.get());
    return split && product_of_factors(split->factors) == 1 ? split : nullptr;
}

bool placed_at_a_loop(const State &program, const std::string &func) {
    const FuncSteps *g = program.group(func);
    if (!g) return false;
    for (const StepPtr &step : g->steps) {
        const Location *loc = step->placement();
        if (loc && loc->kind == LocationKind::At) return true;
    }
    return false;
}

// Whether the consumer stage that holds `at` guards its tiles (SplitStep::lower
// guards an update's pure splits, and some tails) and fuses two loops at or
// outside `at`'s loop.
bool guarded_tiles_under_a_fuse(const LoopNest &m, const Location &at) {
    const ModelStage &stage = m.stage(at.func, at.stage);
    bool guarded = at.stage > 0, fused = false;
    const int place = stage.find(at.loop);
    for (int i = 0; i < (int)stage.loops.size(); i++) {
        guarded = guarded || stage.loops[i].guarded_tail;
        if (i <= place && stage.loops[i].fused_from.size() > 1) fused = true;
    }
    return guarded && fused;
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
            if (!node || under_clamp[*node] || placed_at_a_loop(program, split->func())) return true;
        }
    }
    return false;
}

void check_unit_split_bounds(const State &program, const LoopNest &m) {
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
            std::string why;
            if (overcompute_reads_past_input(m.dag(), node, m.inlined_nodes())) {
                why = "under a clamp";
            } else if (guarded_tiles_under_a_fuse(m, f.location)) {
                why = "under guarded tiles and a fused loop";
            } else {
                continue;
            }
            throw InvalidState("'" + f.name + "' stage " + std::to_string(split->stage) + " splits '" + split->loop +
                               "' by 1 inside '" + f.location.func + "' " + why +
                               ": Halide would bound its input reads past the region");
        }
    }
}

}  // namespace ansor
