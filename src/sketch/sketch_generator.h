#pragma once
// Enumerates sketches: breadth-first over (partial sketch, node) from the
// last node (an output) to node 0, applying every rule whose condition holds.
#include "sketch/sketch_rules.h"

namespace ansor {

// The rules default to sketch_rules_for(ctx.target): the GPU rules for a GPU target.
std::vector<State> generate_sketches(const SketchContext &ctx, const std::vector<SketchRulePtr> &rules);
std::vector<State> generate_sketches(const SketchContext &ctx);

}  // namespace ansor
