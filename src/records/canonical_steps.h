#pragma once
// A State's steps in the name-independent form a tuning record stores: the
// Step JSON of src/state/steps.cpp with every Func and loop name replaced by
// its canonical name (see canonical_names.h), through Step::renamed. Loop
// names derived by steps (split pieces x_0 x_1, fused x_0_y_0_f, rfactor Vars
// r_0_v, intermediate Funcs) are derived again from the canonical names, so "x_1" of Func
// "matmul$1" is stored as "v0_1" of "f2" and read back as the current
// process's name of that loop.
#include "records/canonical_names.h"
#include "state/state.h"

#include <nlohmann/json.hpp>

namespace ansor {

// The format of the steps a record stores. Raise it when a step's JSON
// changes meaning (a field read differently, a derived loop name made
// another way): records of another format are then never applied.
constexpr int kStepsFormatVersion = 1;

// Throws InvalidState when a step names a Func or loop the pipeline does not
// have (a state that never replayed).
nlohmann::json canonical_steps(const State &state, const CanonicalNames &names);

// The inverse, for `dag` (the DAG `names` was built from). Throws UserError
// for a malformed step and InvalidState for names that do not fit this
// pipeline. The state is not replayed here.
State state_from_canonical_steps(const PipelineDAG &dag, const CanonicalNames &names, const nlohmann::json &steps);

}  // namespace ansor
