#include "state/replay_memo.h"

#include <algorithm>

namespace ansor {

namespace {
thread_local ReplayMemo *active_memo = nullptr;
}  // namespace

ReplayMemo::ReplayMemo(size_t max_entries) : max_entries_(std::max<size_t>(1, max_entries)), replaced_(active_memo) {
    active_memo = this;
}

ReplayMemo::~ReplayMemo() { active_memo = replaced_; }

ReplayMemo *ReplayMemo::active() { return active_memo; }

std::map<ReplayMemo::Key, ReplayMemo::Entry>::iterator ReplayMemo::find(const Key &key) {
    auto it = entries_.find(key);
    if (it != entries_.end()) recency_.splice(recency_.begin(), recency_, it->second.recency);
    return it;
}

std::map<ReplayMemo::Key, ReplayMemo::Entry>::iterator ReplayMemo::remember(Key key, Entry entry) {
    if (entries_.size() >= max_entries_) {
        entries_.erase(entries_.find(*recency_.back()));
        recency_.pop_back();
    }
    auto [it, inserted] = entries_.emplace(std::move(key), std::move(entry));
    if (!inserted) return it;
    recency_.push_front(&it->first);
    it->second.recency = recency_.begin();
    return it;
}

std::shared_ptr<const LoopNest> ReplayMemo::replay(const PipelineDAG &dag, const std::vector<StepPtr> &steps) {
    Key key{&dag, {}};
    key.second.reserve(steps.size());
    for (const StepPtr &s : steps) key.second.push_back(s.get());
    auto it = find(key);
    if (it != entries_.end()) {
        if (!it->second.nest) throw InvalidState(it->second.refusal);
        return it->second.nest;
    }
    // The longest prefix built so far (a refused one refuses its extensions
    // too); the pipeline's unscheduled loop nest is the empty prefix.
    std::shared_ptr<const LoopNest> start;
    size_t done = steps.size();
    Key prefix{&dag, key.second};
    while (done > 0 && !start) {
        prefix.second.pop_back();
        done--;
        auto p = find(prefix);
        if (p == entries_.end()) continue;
        if (!p->second.nest) {
            const std::string refusal = p->second.refusal;
            remember(std::move(key), Entry{steps, nullptr, refusal, {}});
            throw InvalidState(refusal);
        }
        start = p->second.nest;
    }
    if (!start) {
        start = std::make_shared<const LoopNest>(dag);
        remember(Key{&dag, {}}, Entry{{}, start, "", {}});
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
    it = remember(std::move(key), std::move(e));
    if (!it->second.nest) throw InvalidState(it->second.refusal);
    return it->second.nest;
}

}  // namespace ansor
