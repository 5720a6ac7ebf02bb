#pragma once
// Remembers the loop nests State::replay() builds, for as long as a
// ReplayMemo lives on the calling thread. Sketch generation asks for the
// loop nest of one partial sketch many times over (each rule's condition,
// then its apply, then the next rule's), and building one is most of its
// time on pipelines of many Funcs; elsewhere nothing is remembered, since
// the search rarely replays one program twice.
#include "state/loop_nest.h"
#include "state/steps.h"

#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace ansor {

class ReplayMemo {
public:
    // Becomes the calling thread's memo until destroyed (then the one it
    // replaced, if any, is again).
    ReplayMemo();
    ~ReplayMemo();
    ReplayMemo(const ReplayMemo &) = delete;
    ReplayMemo &operator=(const ReplayMemo &) = delete;

    // The calling thread's memo, or null.
    static ReplayMemo *active();

    // The loop nest of `steps` (in replay order) on `dag`, built once, from
    // a copy of the longest prefix of them already built (a partial sketch
    // is its parent's steps and a few more); steps that replay refuses are
    // refused again with the same InvalidState.
    std::shared_ptr<const LoopNest> replay(const PipelineDAG &dag, const std::vector<StepPtr> &steps);

private:
    // Steps are immutable and shared between copies of a program, so the
    // sequence of their addresses names the program; each entry holds its
    // steps, so no address is reused while it stands.
    using Key = std::pair<const PipelineDAG *, std::vector<const Step *>>;
    struct Entry {
        std::vector<StepPtr> steps;
        std::shared_ptr<const LoopNest> nest;  // null when refused
        std::string refusal;
    };
    // Enough for every partial sketch of a large pipeline's generation; the
    // memo starts afresh when full rather than growing without bound.
    static constexpr size_t kMaxEntries = 4096;
    std::map<Key, Entry> entries_;
    ReplayMemo *replaced_;
};

}  // namespace ansor
