#include "search/random_search.h"

#include <chrono>
#include <set>

namespace ansor {

RandomSearch::RandomSearch(const PipelineDAG &dag, std::vector<State> sketches, RandomAnnotator &annotator,
                           Measurer *measurer, uint64_t seed)
    : dag_(dag), sketches_(std::move(sketches)), annotator_(annotator), measurer_(measurer), rng_(seed) {}

std::optional<State> RandomSearch::sample() {
    if (sketches_.empty()) return std::nullopt;
    std::uniform_int_distribution<size_t> pick(0, sketches_.size() - 1);
    for (int attempt = 0; attempt < 64; attempt++) {
        try {
            State s = annotator_.annotate(sketches_[pick(rng_)], rng_);
            s.replay();
            return s;
        } catch (const InvalidState &) {
        }
    }
    return std::nullopt;
}

SearchOutcome RandomSearch::run(int trials, const std::function<void(const SearchProgress &)> &progress) {
    SearchOutcome out;
    std::set<std::string> seen;
    auto start = std::chrono::steady_clock::now();
    int misses = 0;
    while ((int)out.trials.size() < trials && misses < 200) {
        std::optional<State> s = sample();
        if (!s || !seen.insert(s->key()).second) {
            misses++;  // the space may be smaller than the budget
            continue;
        }
        misses = 0;
        MeasureResult r = measurer_->measure({*s})[0];
        out.trials.push_back({*s, r});
        if (!r.ok) {
            out.failures++;
        } else if (!out.best || r.min_ms < out.best_result.min_ms) {
            out.best = *s;
            out.best_result = r;
        }
        if (progress) {
            SearchProgress p;
            p.trials_done = (int)out.trials.size();
            p.trials_total = trials;
            p.failures = out.failures;
            p.best_ms = out.best ? out.best_result.min_ms : 0;
            p.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            p.left_s = p.elapsed_s / p.trials_done * (trials - p.trials_done);
            progress(p);
        }
    }
    return out;
}

}  // namespace ansor
