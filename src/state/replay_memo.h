#pragma once
// Remembers the loop nests State::replay() builds, for as long as a
// ReplayMemo lives on the calling thread. Sketch generation asks for the
// loop nest of one partial sketch many times over (each rule's condition,
// then its apply, then the next rule's), and building one is most of its
// time on pipelines of many Funcs; elsewhere nothing is remembered, since
// the search rarely replays one program twice.
#include "state/loop_nest.h"
#include "state/steps.h"

#include <list>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace ansor {

class ReplayMemo {
public:
    // The most recently used entries are kept: a partial sketch's children
    // are replayed soon after it. Enough for a large pipeline's partial
    // sketches under work at once, without a loop nest for every partial
    // sketch ever seen (each holds every Func's loops).
    static constexpr size_t kDefaultMaxEntries = 1024;

    // Becomes the calling thread's memo until destroyed (then the one it
    // replaced, if any, is again), keeping at most `max_entries` loop nests.
    explicit ReplayMemo(size_t max_entries = kDefaultMaxEntries);
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
        std::list<const Key *>::iterator recency;
    };
    std::map<Key, Entry>::iterator find(const Key &key);
    std::map<Key, Entry>::iterator remember(Key key, Entry entry);
    size_t max_entries_;
    std::map<Key, Entry> entries_;
    std::list<const Key *> recency_;  // most recent first
    ReplayMemo *replaced_;
};

}  // namespace ansor
