#pragma once
// Small tools evolution edits States with: the loop-nest model at a point of
// the replay, and the Funcs whose location the search may move.
#include "state/state.h"

#include <optional>

namespace ansor {

// The model after every group before `func`'s and the first `steps_in_group`
// steps of `func`'s own group (deferred steps are left out: they annotate
// only and always run last).
LoopNest model_before(const State &s, const std::string &func, size_t steps_in_group);

// A Func whose location was drawn by the annotator (not tiled by a rule, not
// an output): its group starts with a location step followed only by the
// annotation steps (a vector split, vectorize, fuse+parallel, auto-unroll).
bool has_free_location(const State &s, const FuncSteps &group);

// The state if all of its steps replay, else nothing.
std::optional<State> if_valid(State s);

}  // namespace ansor
