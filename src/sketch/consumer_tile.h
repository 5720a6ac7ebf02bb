#pragma once
// Where a producer goes inside its consumers' tiles: the helpers the
// consumer-tile sketch rules (compute_at_consumer_tile, sliding windows,
// multi_level_tiling_at_consumer_tile) share.
#include "sketch/sketch_rules.h"

#include <optional>
#include <string>

namespace ansor {

// Where node i's consumers are computed, as one loop that encloses them all:
// the loop every consumer is computed at (a chain), or the outer tile loop of
// the single consumer at root (tiling it "SS" first when no rule has tiled it).
struct ConsumerTile {
    Location at;
    std::string tile_consumer;  // a consumer to tile "SS" first; `at` is then unset
    bool chained = false;       // every consumer is an untiled member of a chain
};

std::optional<ConsumerTile> consumer_tile(const PipelineDAG &dag, const State &s, int i);

// Computes node i inside its consumers' tile (tiling the consumer "SS" when
// needed); with `structure`, tiles i's last stage that way at its new place.
// Nullopt when Halide would not accept it.
std::optional<State> compute_in_consumer_tile(const SketchContext &ctx, const State &s, int i, const ConsumerTile &t,
                                              const std::string &structure);

// Whether some consumer of node i (reading through the Funcs `inlined`
// marks) reads it at a coarser scale than its own (producer_reads.h): a
// chain of producers in one consumer tile stops there.
bool downsampled_by_a_consumer(const PipelineDAG &dag, const std::vector<bool> &inlined, int i);

// Whether a rule already tiled some consumer "SS" for its producers (a
// sketch tiles at most one consumer that way).
bool has_two_level_tile(const State &s);

// The outer tile loop of `func`'s last stage as a rule tiled it (the
// innermost of the leading loops that are outer pieces of its splits).
std::optional<Location> outer_tile_loop(const State &s, const LoopNest &m, const std::string &func);

// The cache-read rule (cache_read_rule.cpp): an operand of a multi-level
// tiled consumer staged through a wrapper at the outer tile.
SketchRulePtr make_cache_read_rule();

// The sliding-window rule (sliding_window_rule.cpp): a stencil producer
// stored at its consumer's outer tile loop and computed at the serial loop
// inside it.
SketchRulePtr make_sliding_window_rule();

// The lookup-table rule (lookup_table_rule.cpp): a strictly inlinable Func
// read at data-dependent indices, computed at root beside its inlined sketch.
SketchRulePtr make_lookup_table_rule();

// The serial-reduction rule (serial_reduction_rule.cpp): a strictly
// inlinable Func read at every step of an update with no pure loop (a
// histogram's scatter), computed at root instead of inside that scalar loop.
SketchRulePtr make_serial_reduction_rule();

// The shared-value rule (shared_value_rule.cpp): a strictly inlinable Func
// its consumer reads at one point across a whole loop, computed at the
// consumer's tile beside its inlined sketch.
SketchRulePtr make_shared_value_rule();

// The scan-strip rule (scan_strip_rule.cpp): a Func whose updates scan one
// dimension computed per strip of its consumer along another.
SketchRulePtr make_scan_strip_rule();

// Its companion: the Func such a scan reads computed at the outermost loop
// of the scan's consumer when the strips lie inside it (one channel at a time).
SketchRulePtr make_scan_producer_at_outer_loop_rule();

// The reduction-step rules (reduction_step_rule.cpp): a reduction whose
// producer is read at a point the reduction variables alone choose (one
// image per window offset) tiled "SRS", and that producer computed at the
// reduction loop, inside the consumer's tile.
SketchRulePtr make_reduction_step_tiling_rule();
SketchRulePtr make_compute_at_reduction_step_rule();

}  // namespace ansor
