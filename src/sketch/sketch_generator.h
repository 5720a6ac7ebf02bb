#pragma once
// Enumerates sketches: breadth-first over (partial sketch, node) from the
// last node (an output) to node 0, applying every rule whose condition holds.
//
// Rules that offer several placements multiply the sketches stage by stage,
// so a pipeline of tens of stages can have tens of thousands (and sketch
// generation then takes minutes). The open list is therefore bounded: when it
// passes kMaxOpenSketches it is thinned to every other entry, which keeps
// partial sketches from every branch taken so far. The apps and operators
// stay below the bound and are enumerated whole.
#include "sketch/sketch_rules.h"

namespace ansor {

constexpr size_t kMaxOpenSketches = 512;

// The rules default to sketch_rules_for(ctx.target): the GPU rules for a GPU
// target. With them, sketches that keep a Func the loop-nest model cannot
// represent at root are dropped where its buffer there would be mapped
// afresh on every run and other sketches compute it inside a loop.
std::vector<State> generate_sketches(const SketchContext &ctx, const std::vector<SketchRulePtr> &rules);
std::vector<State> generate_sketches(const SketchContext &ctx);

}  // namespace ansor
