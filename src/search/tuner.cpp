#include "search/tuner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace ansor {

TunerOptions with_policy(TunerOptions o, SearchPolicy p) {
    o.policy = p;
    if (p == SearchPolicy::Random) o.epsilon = 1;
    if (p == SearchPolicy::Model) {
        o.evolution.generations = 0;
        o.seed_share = 0;
    }
    return o;
}

Tuner::Tuner(const ProgramSampler &sampler, RandomAnnotator &annotator, AnnotationOptions annotation,
             Measurer &measurer, CostModel &model, TunerOptions options)
    : sampler_(sampler), measurer_(measurer), model_(model), options_(options),
      evolution_(sampler, annotator, std::move(annotation), model, options.evolution), rng_(options.seed) {}

void Tuner::consider(const TrialRecord &t) {
    measured_.insert(t.state.key());
    if (!t.result.ok) return;
    successes_.push_back(t);
    if (!outcome_.best || t.result.min_ms < outcome_.best_result.min_ms) {
        outcome_.best = t.state;
        outcome_.best_result = t.result;
    }
}

void Tuner::add_history(const std::vector<TrialRecord> &history) {
    if (!history.empty()) resumed_ = true;
    std::vector<State> states;
    std::vector<MeasureResult> results;
    for (const auto &t : history) {
        consider(t);
        states.push_back(t.state);
        results.push_back(t.result);
    }
    if (!states.empty()) model_.update(states, results);
}

void Tuner::suggest(std::vector<State> states) {
    for (auto &s : states) suggested_.push_back(std::move(s));
}

std::vector<State> Tuner::pick_candidates(int count, std::mt19937_64 &rng) {
    std::vector<State> picked;
    std::set<std::string> keys = measured_;
    if (!suggested_.empty() && count > 0) {
        std::vector<State> fresh;
        for (auto &s : suggested_) {
            if (keys.insert(s.key()).second) fresh.push_back(std::move(s));
        }
        suggested_.clear();
        std::vector<double> scores = model_.predict(fresh);
        std::vector<size_t> order(fresh.size());
        for (size_t i = 0; i < order.size(); i++) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return scores[a] > scores[b]; });
        size_t take = std::max<size_t>(1, (size_t)(options_.suggestion_share * count));
        for (size_t i = 0; i < order.size(); i++) {
            // Not taken (or not replayable): back out of the key set, so the search may still find it.
            if (i < take && (int)picked.size() < count && std::isfinite(scores[order[i]])) {
                picked.push_back(std::move(fresh[order[i]]));
            } else {
                keys.erase(fresh[order[i]].key());
            }
        }
        count -= (int)picked.size();
    }
    // Stochastic rounding keeps the random share at ε on average for small rounds.
    double want_random = options_.epsilon * count;
    int n_random = (int)want_random + (std::bernoulli_distribution(want_random - std::floor(want_random))(rng) ? 1 : 0);
    n_random = std::min(n_random, count);
    // A model that cannot rank yet gets a round of random programs. The
    // draw above still happens, so the round is exactly the random policy's.
    if (!model_.can_rank()) n_random = count;

    const size_t suggested = picked.size();
    if (n_random < count) {
        std::vector<State> seeds;
        if (options_.seed_share > 0) {
            std::vector<const TrialRecord *> best;
            for (const auto &t : successes_) best.push_back(&t);
            std::sort(best.begin(), best.end(),
                      [](const TrialRecord *a, const TrialRecord *b) { return a->result.min_ms < b->result.min_ms; });
            size_t n_seeds = (size_t)(options_.seed_share * options_.evolution.population);
            for (size_t i = 0; i < best.size() && i < n_seeds; i++) seeds.push_back(best[i]->state);
        }
        // Nothing of this pipeline measured yet (no history, no trial): the
        // first round's cap, and the first round's picks spread over the
        // sketches. A resumed search measured its sketches before.
        const bool first_round = measured_.empty();
        const int evolved = count - n_random;
        Selection selection;
        selection.structure_share = first_round ? options_.evolution.first_round_structure_share
                                                : options_.evolution.max_structure_share;
        if (!resumed_ && options_.evolution.sketch_coverage_share > 0) {
            for (int i = 0; i < (int)sampler_.sketches().size(); i++) {
                if (!measured_sketches_.count(i)) selection.uncovered_sketches.insert(i);
            }
            selection.coverage_slots =
                first_round ? evolved : (int)std::ceil(options_.evolution.sketch_coverage_share * evolved);
        }
        for (auto &s : evolution_.search(seeds, evolved, keys, rng, selection)) {
            keys.insert(s.key());
            picked.push_back(std::move(s));
        }
    }
    // Random programs fill the ε share, and whatever evolution could not.
    for (int misses = 0; (int)(picked.size() - suggested) < count && misses < 200;) {
        std::optional<State> s = sampler_.sample(rng);
        if (!s || !keys.insert(s->key()).second) {
            misses++;  // the space may be smaller than the budget
            continue;
        }
        picked.push_back(std::move(*s));
    }
    return picked;
}

TuningOutcome Tuner::run() { return run_more(options_.trials); }

TuningOutcome Tuner::run_more(int trials) {
    auto start = std::chrono::steady_clock::now();
    int done = 0;
    const int before = (int)outcome_.trials.size();
    while (done < trials) {
        int count = std::min(options_.measures_per_round, trials - done);
        std::vector<State> candidates = pick_candidates(count, rng_);
        if (candidates.empty()) break;  // nothing new left to measure
        // The whole round at once, so that the measurer can compile its
        // candidates in parallel; each result then reaches the log and the
        // progress line in the candidates' order.
        std::vector<MeasureResult> results = measurer_.measure(candidates);
        if (results.size() != candidates.size()) throw std::logic_error("the measurer lost candidates of a round");
        for (size_t i = 0; i < candidates.size(); i++) {
            TrialRecord t{candidates[i], results[i]};
            consider(t);
            if (candidates[i].sketch() >= 0) measured_sketches_.insert(candidates[i].sketch());
            outcome_.trials.push_back(t);
            if (!t.result.ok) outcome_.failures++;
            done++;
            if (on_measured) on_measured(t);
            if (on_progress) {
                TuningProgress p;
                p.trials_done = before + done;
                p.trials_total = before + trials;
                p.failures = outcome_.failures;
                p.round = rounds_;
                p.best_ms = outcome_.best ? outcome_.best_result.min_ms : 0;
                double now = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                p.elapsed_s = seconds_ + now;
                p.left_s = now / done * (trials - done);
                on_progress(p);
            }
        }
        rounds_++;
        if (options_.epsilon < 1) model_.update(candidates, results);
    }
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    outcome_.evolution = evolution_.stats();
    return outcome_;
}

}  // namespace ansor
