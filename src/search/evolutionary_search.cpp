#include "search/evolutionary_search.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

namespace ansor {

namespace {

// Per DAG Func, the summed scores of its statements (an rfactor
// intermediate counts for the Func it came from).
std::map<std::string, double> func_scores(const ProgramPrediction &p) {
    std::map<std::string, double> out;
    for (size_t i = 0; i < p.stage_scores.size(); i++) {
        const std::string &f = p.stage_funcs[i];
        out[intermediate_origin(f).value_or(f)] += p.stage_scores[i];
    }
    return out;
}

// Take a Func's steps from the parent whose statements score higher, most of the time.
std::map<std::string, double> crossover_preference(const ProgramPrediction &a, const ProgramPrediction &b) {
    std::map<std::string, double> sa = func_scores(a), sb = func_scores(b), prefer;
    for (const auto &kv : sa) {
        auto it = sb.find(kv.first);
        if (it == sb.end() || kv.second == it->second) continue;
        prefer[kv.first] = kv.second > it->second ? 0.8 : 0.2;
    }
    return prefer;
}

}  // namespace

EvolutionarySearch::EvolutionarySearch(const ProgramSampler &sampler, RandomAnnotator &annotator,
                                       AnnotationOptions annotation, CostModel &model, EvolutionOptions options)
    : sampler_(sampler), annotator_(annotator), mutator_(annotator, std::move(annotation)), model_(model),
      options_(options) {}

std::vector<State> EvolutionarySearch::next_generation(const std::vector<State> &population,
                                                       const std::vector<ProgramPrediction> &predictions,
                                                       std::mt19937_64 &rng) {
    // Roulette wheel over predicted fitness, measured from the worst
    // program so that negative scores work too; an untrained model (all
    // scores equal) gives uniform selection.
    double lo = INFINITY, hi = -INFINITY;
    for (const auto &p : predictions) {
        if (!std::isfinite(p.score)) continue;
        lo = std::min(lo, p.score);
        hi = std::max(hi, p.score);
    }
    if (!std::isfinite(hi)) return {};  // nothing replays: nothing to breed from
    double floor = std::isfinite(hi) && hi > lo ? 1e-3 * (hi - lo) : 1.0;
    std::vector<double> weights;
    for (const auto &p : predictions) weights.push_back(std::isfinite(p.score) ? p.score - lo + floor : 0.0);
    std::discrete_distribution<size_t> parent(weights.begin(), weights.end());
    std::bernoulli_distribution by_crossover(options_.crossover_share), mutate(options_.mutation_probability);

    std::vector<State> next;
    next.reserve(population.size());
    size_t attempts = 0;
    while (next.size() < population.size() && attempts++ < population.size() * 4) {
        if (options_.crossover_share > 0 && population.size() >= 2 && by_crossover(rng)) {
            size_t a = parent(rng), b = parent(rng);
            if (a == b) continue;
            stats_.crossovers_tried++;
            auto child = crossover(population[a], population[b], crossover_preference(predictions[a], predictions[b]),
                                   annotator_, rng);
            if (!child || !annotator_.fits_target(child->state)) continue;
            stats_.crossovers_ok++;
            next.push_back(std::move(child->state));
        } else {
            const State &p = population[parent(rng)];
            if (!mutate(rng)) {
                next.push_back(p);
                continue;
            }
            stats_.mutations_tried++;
            auto child = mutator_.mutate(p, rng);
            if (!child) continue;
            stats_.mutations_ok++;
            next.push_back(std::move(*child));
        }
    }
    return next;
}

std::vector<State> EvolutionarySearch::search(const std::vector<State> &seeds, int count,
                                              const std::set<std::string> &exclude, std::mt19937_64 &rng) {
    Selection selection;
    selection.structure_share = options_.max_structure_share;
    return search(seeds, count, exclude, rng, selection);
}

std::vector<State> EvolutionarySearch::search(const std::vector<State> &seeds, int count,
                                              const std::set<std::string> &exclude, std::mt19937_64 &rng,
                                              const Selection &selection) {
    if (count <= 0) return {};
    auto start = std::chrono::steady_clock::now();
    std::vector<State> population;
    for (const auto &s : seeds) {
        if ((int)population.size() >= options_.population) break;
        population.push_back(s);
    }
    for (int misses = 0; (int)population.size() < options_.population && misses < 64;) {
        if (auto s = sampler_.sample(rng)) {
            population.push_back(std::move(*s));
        } else {
            misses++;
        }
    }

    // The best unmeasured programs of every generation: per structure and
    // sketch, its `count` best predicted (more cannot be returned). Ties, as
    // with an untrained model, are broken by a random draw, not by key text.
    struct Candidate {
        double score, tie;
        std::string structure;
        State state;
    };
    std::map<std::string, Candidate> best;  // by key
    std::uniform_real_distribution<double> tie(0, 1);
    auto better = [](const Candidate *a, const Candidate *b) {
        return a->score != b->score ? a->score > b->score : a->tie > b->tie;
    };
    auto remember = [&](const std::vector<State> &pop, const std::vector<ProgramPrediction> &pred) {
        for (size_t i = 0; i < pop.size(); i++) {
            if (!std::isfinite(pred[i].score)) continue;
            std::string key = pop[i].key();
            if (exclude.count(key) || best.count(key)) continue;
            best.emplace(key, Candidate{pred[i].score, tie(rng), pop[i].structure_key(), pop[i]});
        }
        // Trim each structure of each sketch to its `count` best.
        std::map<std::string, std::vector<std::pair<const Candidate *, std::string>>> by_structure;
        for (const auto &kv : best) {
            const std::string group = std::to_string(kv.second.state.sketch()) + " " + kv.second.structure;
            by_structure[group].push_back({&kv.second, kv.first});
        }
        for (auto &kv : by_structure) {
            auto &v = kv.second;
            if ((int)v.size() <= count) continue;
            std::sort(v.begin(), v.end(), [&](const auto &a, const auto &b) { return better(a.first, b.first); });
            for (size_t i = count; i < v.size(); i++) best.erase(v[i].second);
        }
    };

    for (int gen = 0; !population.empty(); gen++) {
        std::vector<ProgramPrediction> pred = model_.predict_stages(population);
        remember(population, pred);
        if (gen == options_.generations) break;
        population = next_generation(population, pred, rng);
    }

    std::vector<const Candidate *> ranked;
    for (const auto &kv : best) ranked.push_back(&kv.second);
    std::sort(ranked.begin(), ranked.end(), better);
    std::vector<const Candidate *> chosen, skipped;
    std::map<std::string, int> taken;  // picks per structure
    const int cap = std::max(1, (int)std::ceil(selection.structure_share * count));
    // The best of each uncovered sketch, best first, up to the slots, within
    // the structure cap (many sketches share a structure: camera_pipe's 104
    // have far fewer, and the round should still spread over structures).
    std::set<int> covered;
    std::set<const Candidate *> covering;
    for (const Candidate *c : ranked) {
        if ((int)chosen.size() >= std::min(count, selection.coverage_slots)) break;
        const int sketch = c->state.sketch();
        if (!selection.uncovered_sketches.count(sketch) || covered.count(sketch)) continue;
        if (taken[c->structure] >= cap) continue;
        covered.insert(sketch);
        chosen.push_back(c);
        covering.insert(c);
        taken[c->structure]++;
    }
    // Then best predicted first, skipping a structure that has its share;
    // what the cap left out fills the rest when nothing else is left.
    for (const Candidate *c : ranked) {
        if ((int)chosen.size() == count) break;
        if (covering.count(c)) continue;
        if (taken[c->structure] < cap) {
            taken[c->structure]++;
            chosen.push_back(c);
        } else {
            skipped.push_back(c);
        }
    }
    for (size_t i = 0; i < skipped.size() && (int)chosen.size() < count; i++) chosen.push_back(skipped[i]);
    std::stable_sort(chosen.begin(), chosen.end(), better);
    std::vector<State> out;
    for (const Candidate *c : chosen) out.push_back(c->state);
    stats_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
}

}  // namespace ansor
