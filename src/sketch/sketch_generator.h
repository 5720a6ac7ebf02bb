#pragma once
// Enumerates sketches: breadth-first over (partial sketch, node) from the
// last node (an output) to node 0, applying every rule whose condition holds.
#include "sketch/sketch_rules.h"

namespace ansor {

std::vector<State> generate_sketches(const SketchContext &ctx, const std::vector<SketchRulePtr> &rules = sketch_rules());

}  // namespace ansor
