#include "search/state_edit.h"

namespace ansor {

LoopNest model_before(const State &s, const std::string &func, size_t steps_in_group) {
    LoopNest m(s.dag());
    for (const auto &g : s.groups()) {
        bool own = g.func == func;
        size_t n = own ? std::min(steps_in_group, g.steps.size()) : g.steps.size();
        for (size_t i = 0; i < n; i++) {
            if (!g.steps[i]->deferred()) g.steps[i]->replay(m);
        }
        if (own) break;
    }
    return m;
}

bool has_free_location(const State &s, const FuncSteps &group) {
    auto idx = s.dag().index_of(group.func);
    if (!idx || group.steps.empty()) return false;
    const Node &n = s.dag().node(*idx);
    if (n.is_output || !n.modelled || n.is_strict_inlinable) return false;
    if (!group.steps[0]->placement()) return false;
    for (size_t i = 1; i < group.steps.size(); i++) {
        if (group.steps[i]->origin() != StepOrigin::Annotation) return false;  // e.g. a rule's multi-level tiling
    }
    return true;
}

std::optional<State> if_valid(State s) {
    try {
        s.replay();
    } catch (const InvalidState &) {
        return std::nullopt;
    }
    return s;
}

}  // namespace ansor
