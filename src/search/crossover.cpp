#include "search/crossover.h"

#include "search/state_edit.h"

namespace ansor {

namespace {

// A Func's group and, after it, the group of its rfactor intermediate.
std::vector<const FuncSteps *> groups_of(const State &s, const std::string &func) {
    std::vector<const FuncSteps *> out;
    if (const FuncSteps *g = s.group(func)) out.push_back(g);
    if (const FuncSteps *g = s.group(intermediate_name(func))) out.push_back(g);
    return out;
}

// Replays the groups onto a copy of the model; nothing if a step does not fit.
std::optional<LoopNest> replay_groups(const LoopNest &m, const std::vector<const FuncSteps *> &groups) {
    LoopNest trial = m;
    try {
        for (const FuncSteps *g : groups) {
            for (const auto &step : g->steps) {
                if (!step->deferred()) step->replay(trial);
            }
        }
    } catch (const InvalidState &) {
        return std::nullopt;
    }
    return trial;
}

}  // namespace

std::optional<CrossoverChild> crossover(const State &first, const State &second,
                                        const std::map<std::string, double> &prefer_first,
                                        RandomAnnotator &annotator, std::mt19937_64 &rng) {
    const PipelineDAG &dag = first.dag();
    CrossoverChild child{State(dag), {}};
    if (first.sketch() == second.sketch()) child.state.set_sketch(first.sketch());
    LoopNest m(dag);
    // Consumers before producers, the order groups replay in.
    for (int i = (int)dag.nodes().size() - 1; i >= 0; i--) {
        const std::string &func = dag.node(i).name;
        auto it = prefer_first.find(func);
        bool first_preferred = std::bernoulli_distribution(it == prefer_first.end() ? 0.5 : it->second)(rng);
        const State *parents[2] = {first_preferred ? &first : &second, first_preferred ? &second : &first};

        bool placed = false;
        for (const State *parent : parents) {
            auto groups = groups_of(*parent, func);
            std::optional<LoopNest> after = replay_groups(m, groups);
            if (!after) continue;
            m = std::move(*after);
            for (const FuncSteps *g : groups) child.state.group(g->func).steps = g->steps;
            child.origin[func] = parent == &first ? GeneOrigin::FirstParent : GeneOrigin::SecondParent;
            placed = true;
            break;
        }
        if (placed) continue;

        // Neither parent's steps fit: re-place the Func if its location is free.
        const FuncSteps *a = first.group(func), *b = second.group(func);
        if (!(a && has_free_location(first, *a)) && !(b && has_free_location(second, *b))) return std::nullopt;
        try {
            LoopNest trial = m;
            State repaired = child.state;
            Location loc = annotator.random_location(trial, func, rng);
            auto place = std::make_shared<ComputeLocationStep>(func, loc);
            place->replay(trial);
            repaired.add(place);
            if (loc.kind != LocationKind::Inline) {
                for (size_t st = 0; st < trial.func(func).stages.size(); st++) {
                    annotator.annotate_stage(repaired, trial, func, (int)st, rng);
                }
            }
            m = std::move(trial);
            child.state = std::move(repaired);
            child.origin[func] = GeneOrigin::Repaired;
        } catch (const InvalidState &) {
            return std::nullopt;
        }
    }
    // Deferred steps (auto-unroll) were carried with their groups; check the
    // whole. One parent's inlining can make another's stage one that unrolls
    // little (RandomAnnotator::unrolls_little): such a child, which carries
    // a larger step, is refused.
    State capped = child.state;
    annotator.limit_unroll_steps(capped, m);
    if (capped.key() != child.state.key()) return std::nullopt;
    if (!if_valid(child.state)) return std::nullopt;
    return child;
}

}  // namespace ansor
