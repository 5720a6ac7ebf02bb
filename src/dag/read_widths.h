#pragma once
// How wide a region of a producer one definition of a consumer reads when
// the consumer's variables run over [0, extent) — the bounds inference
// behind every footprint of the loop-nest model (state/loop_nest.h) —
// memoised. The PipelineDAG holds one memo for every program of its
// pipeline (PipelineDAG::read_widths).
//
// Halide's boxes_required is the slow part of replaying a program (most of
// a zero-shot search's time before this memo), and most queries repeat: a
// population of programs tries few tile sizes per loop, but many
// combinations of them.
// Where one producer dim's index reads only some of the consumer's
// variables, its width depends only on their extents, so widths are
// memoised per producer dim, keyed by just those extents. An expression
// with a Select, a Let or an if_then_else (whose conditions can narrow one
// variable by another) is memoised whole instead, keyed by every extent.
// Either way the widths are exactly what boxes_required gives. What is read
// is found once per set of inlined Funcs that matter to the read: those on
// the call paths between the two (Relevant below), not every inlined Func.
#include "dag/pipeline_dag.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ansor {

struct ReadWidths {
    std::vector<int64_t> widths;  // per producer dim; 0 where nothing is read
    bool exact = true;            // false if some width is not a constant
};

// Not thread-safe: one search replays programs at a time.
class ReadWidthMemo {
public:
    // The widths of `producer`'s dims (`producer_dims` of them) that stage
    // `def_stage` of `consumer` reads, with the Funcs `inlined` marks
    // substituted into it, each variable of `extents` over [0, extent).
    ReadWidths widths(const PipelineDAG &dag, const std::string &producer, size_t producer_dims, const Node &consumer,
                      int def_stage, const std::vector<bool> &inlined, const std::map<std::string, int64_t> &extents);

private:
    // One producer dim: the widest constant width read, and whether every width read was constant.
    struct DimWidth {
        int64_t width = 0;
        bool constant = true;
    };
    // What one (producer, consumer stage, inlined set) reads, found once.
    struct Reads {
        std::vector<Halide::Expr> exprs;             // the stage's args and values, inlined
        std::vector<std::vector<std::string>> vars;  // per producer dim: the variables its indices use
        bool per_dim = false;                        // whether dims may be memoised one by one
        std::vector<std::map<std::vector<int64_t>, DimWidth>> dims;  // per dim, by its variables' extents
        std::map<std::vector<int64_t>, std::vector<DimWidth>> whole;  // when !per_dim, by every extent
    };
    // Which Funcs' inlining can change what `consumer` reads of `producer`:
    // those on a call path from one to the other (a Func called off every
    // such path substitutes no call of the producer). All, if some call on
    // those paths indexes by another Func's value (inlining that Func
    // would change the index).
    struct Relevant {
        std::vector<int> funcs;
        bool all = false;
    };
    const Relevant &relevant(const PipelineDAG &dag, int producer, int consumer);
    Reads &reads(const PipelineDAG &dag, const std::string &producer, size_t producer_dims, const Node &consumer,
                 int def_stage, const std::vector<bool> &inlined);
    // Bounds inference itself, every producer dim at once.
    std::vector<DimWidth> compute(const Reads &r, size_t producer_dims, const std::string &producer,
                                  const std::map<std::string, int64_t> &extents) const;

    // A memo may always be dropped: past this many widths kept, it starts
    // again, so a long search's memory stays bounded.
    static constexpr size_t kMaxEntries = 4000000;
    size_t entries_ = 0;
    std::map<std::string, Reads> reads_;
    std::map<std::pair<int, int>, Relevant> relevant_;
};

}  // namespace ansor
