#include "state/replay_memo.h"

namespace ansor {

namespace {
thread_local ReplayMemo *active_memo = nullptr;
}  // namespace

ReplayMemo::ReplayMemo() : replaced_(active_memo) { active_memo = this; }

ReplayMemo::~ReplayMemo() { active_memo = replaced_; }

ReplayMemo *ReplayMemo::active() { return active_memo; }

std::shared_ptr<const LoopNest> ReplayMemo::replay(const PipelineDAG &dag, const std::vector<StepPtr> &steps) {
    Key key{&dag, {}};
    key.second.reserve(steps.size());
    for (const StepPtr &s : steps) key.second.push_back(s.get());
    auto it = entries_.find(key);
    if (it != entries_.end()) {
        if (!it->second.nest) throw InvalidState(it->second.refusal);
        return it->second.nest;
    }
    if (entries_.size() >= kMaxEntries) entries_.clear();
    // The longest prefix built so far (a refused one refuses its extensions
    // too); the pipeline's unscheduled loop nest is the empty prefix.
    std::shared_ptr<const LoopNest> start;
    size_t done = steps.size();
    Key prefix{&dag, key.second};
    while (done > 0 && !start) {
        prefix.second.pop_back();
        done--;
        auto p = entries_.find(prefix);
        if (p == entries_.end()) continue;
        if (!p->second.nest) {
            const std::string refusal = p->second.refusal;
            entries_.emplace(std::move(key), Entry{steps, nullptr, refusal});
            throw InvalidState(refusal);
        }
        start = p->second.nest;
    }
    if (!start) {
        start = std::make_shared<const LoopNest>(dag);
        entries_.emplace(Key{&dag, {}}, Entry{{}, start, ""});
    }
    Entry e;
    e.steps = steps;
    try {
        LoopNest m = *start;
        for (size_t k = done; k < steps.size(); k++) steps[k]->replay(m);
        e.nest = std::make_shared<const LoopNest>(std::move(m));
    } catch (const InvalidState &refused) {
        e.refusal = refused.what();
    }
    it = entries_.emplace(std::move(key), std::move(e)).first;
    if (!it->second.nest) throw InvalidState(it->second.refusal);
    return it->second.nest;
}

}  // namespace ansor
