// Evolution on its own: mutations and crossover keep programs legal and
// correct, crossover children carry their parents' steps, and evolution
// under a synthetic cost model finds that model's known optimum.
#include "measure/measurer.h"
#include "search/evolutionary_search.h"
#include "model/random_cost_model.h"
#include "model/xgboost_cost_model.h"
#include "search/state_edit.h"
#include "search/tuner.h"
#include "sketch/sketch_generator.h"
#include "measure_test_support.h"
#include "test_pipelines.h"
#include "util/target.h"

#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <map>
#include <set>

using namespace ansor;

namespace {

Halide::Target cpu() { return ansor_test::cpu_target(); }

AnnotationOptions annotation() {
    AnnotationOptions ao;
    ao.parallelism = 2;
    return ao;
}

// Everything one pipeline's search needs, built once per test.
struct Setup {
    explicit Setup(const ansor_test::Pipe &p)
        : pipe(p), dag(p.functions(), 2), annotator(dag, cpu(), annotation()),
          sampler(generate_sketches({dag, cpu()}), annotator) {}
    std::vector<State> samples(int n, std::mt19937_64 &rng) {
        std::vector<State> out;
        while ((int)out.size() < n) {
            auto s = sampler.sample(rng);
            REQUIRE(s);
            out.push_back(*s);
        }
        return out;
    }
    ansor_test::Pipe pipe;
    PipelineDAG dag;
    RandomAnnotator annotator;
    ProgramSampler sampler;
};

// A cost model given by a function of the state.
class SyntheticModel : public CostModel {
public:
    explicit SyntheticModel(std::function<double(const State &)> f) : f_(std::move(f)) {}
    std::vector<double> predict(const std::vector<State> &states) override {
        std::vector<double> out;
        for (const auto &s : states) out.push_back(f_(s));
        return out;
    }
    std::vector<ProgramPrediction> predict_stages(const std::vector<State> &states) override {
        std::vector<ProgramPrediction> out(states.size());
        for (size_t i = 0; i < states.size(); i++) out[i].score = f_(states[i]);
        return out;
    }
    void update(const std::vector<State> &, const std::vector<MeasureResult> &) override {}
    std::string name() const override { return "synthetic"; }

private:
    std::function<double(const State &)> f_;
};

std::string group_json(const State &s, const std::string &func) {
    nlohmann::json j = nlohmann::json::array();
    if (const FuncSteps *g = s.group(func)) {
        for (const auto &step : g->steps) j.push_back(step->to_json());
    }
    return j.dump();
}

}  // namespace

TEST_CASE("evolution: every mutation kind yields a different program that replays") {
    // matmul+ReLU has tiles and parallel loops; the blur's first stage has a free location.
    std::vector<int> made(kMutationKinds, 0);
    for (auto pipe : {ansor_test::make_matmul_relu(64), ansor_test::make_blur(128, 64)}) {
        Setup m(pipe);
        Mutator mutator(m.annotator, annotation());
        std::mt19937_64 rng(3);
        auto parents = m.samples(40, rng);
        for (int k = 0; k < kMutationKinds; k++) {
            auto kind = (MutationKind)k;
            CAPTURE(std::string(mutation_name(kind)));
            for (const auto &p : parents) {
                auto child = mutator.mutate(p, kind, rng);
                if (!child) continue;
                made[k]++;
                CHECK(child->key() != p.key());
                CHECK_NOTHROW(child->replay());
            }
        }
    }
    for (int k = 0; k < kMutationKinds; k++) {
        CAPTURE(std::string(mutation_name((MutationKind)k)));
        CHECK(made[k] > 0);
    }
}

TEST_CASE("evolution: a tile-size mutation keeps the split covering its loop") {
    Setup m(ansor_test::make_matmul(64));
    std::mt19937_64 rng(5);
    int checked = 0;
    for (const auto &p : m.samples(30, rng)) {
        auto child = mutate_tile_size(p, annotation(), rng);
        if (!child) continue;
        // Exactly one split changed; its levels still multiply to the extent.
        for (size_t g = 0; g < p.groups().size(); g++) {
            for (size_t i = 0; i < p.groups()[g].steps.size(); i++) {
                auto a = std::dynamic_pointer_cast<const SplitStep>(p.groups()[g].steps[i]);
                auto b = std::dynamic_pointer_cast<const SplitStep>(child->groups()[g].steps[i]);
                if (!a || !b || a->factors == b->factors) continue;
                int64_t extent = model_before(p, a->func(), i).loop(a->func(), a->stage, a->loop).extent;
                int64_t pb = 1;
                for (auto f : b->factors) pb *= f;
                // 64 is a power of two: every level stays a divisor.
                CHECK(extent % pb == 0);
                checked++;
            }
        }
    }
    CHECK(checked > 5);
}

TEST_CASE("evolution: a crossover child carries each Func's steps from the parent it names") {
    for (auto pipe : {ansor_test::make_matmul_relu(64), ansor_test::make_blur(128, 64), ansor_test::make_padded_conv()}) {
        Setup m(pipe);
        std::mt19937_64 rng(7);
        auto parents = m.samples(30, rng);
        int children = 0;
        for (size_t i = 0; i + 1 < parents.size(); i += 2) {
            auto child = crossover(parents[i], parents[i + 1], {}, m.annotator, rng);
            if (!child) continue;
            children++;
            for (const auto &[func, origin] : child->origin) {
                CAPTURE(func);
                if (origin == GeneOrigin::Repaired) continue;
                const State &from = origin == GeneOrigin::FirstParent ? parents[i] : parents[i + 1];
                CHECK(group_json(child->state, func) == group_json(from, func));
                CHECK(group_json(child->state, func + "_intm") == group_json(from, func + "_intm"));
            }
        }
        CHECK(children >= 5);
    }
}

TEST_CASE("evolution: crossover prefers the parent it is told to") {
    Setup m(ansor_test::make_matmul_relu(64));
    std::mt19937_64 rng(9);
    auto parents = m.samples(2, rng);
    std::map<std::string, double> always_first;
    for (const auto &n : m.dag.nodes()) always_first[n.name] = 1.0;
    auto child = crossover(parents[0], parents[1], always_first, m.annotator, rng);
    REQUIRE(child);
    CHECK(child->state.key() == parents[0].key());
}

TEST_CASE("evolution: finds the optimum of a synthetic cost model that random sampling misses") {
    Setup m(ansor_test::make_matmul(256));
    const std::string out = ansor_test::resolve(m.dag, "matmul");
    // The optimum: the update tiled "SSRSRS" with both space loops split
    // (outer..inner) 8x4x2x4 and the reduction 32x8: one program in ~10^5.
    const std::vector<int64_t> space_target = {4, 2, 4}, reduction_target = {8};
    auto score = [&](const State &s) {
        const FuncSteps *g = s.group(out);
        double distance = 0;
        int tiled = 0;
        for (const auto &step : g ? g->steps : std::vector<StepPtr>{}) {
            auto split = std::dynamic_pointer_cast<const SplitStep>(step);
            if (!split || split->stage != 1) continue;
            const auto &target = split->factors.size() == 1 ? reduction_target : space_target;
            if (split->factors.size() != target.size()) continue;
            tiled++;
            for (size_t i = 0; i < target.size(); i++) {
                distance += std::abs(std::log2((double)split->factors[i]) - std::log2((double)target[i]));
            }
        }
        // Shaped like a normalised throughput, as the learned model predicts.
        return tiled == 3 ? std::exp(-distance) : 0.0;
    };
    SyntheticModel model(score);
    EvolutionOptions eo;
    eo.population = 256;
    eo.generations = 12;
    EvolutionarySearch evolution(m.sampler, m.annotator, annotation(), model, eo);
    std::mt19937_64 rng(11);

    double best_sampled = 0;
    for (const auto &s : m.samples(eo.population * (eo.generations + 1), rng)) best_sampled = std::max(best_sampled, score(s));
    auto found = evolution.search({}, 4, {}, rng);
    REQUIRE(!found.empty());
    MESSAGE("best of random samples " << best_sampled << ", evolution " << score(found[0]));
    CHECK(score(found[0]) == 1.0);
    CHECK(best_sampled < 1.0);
    CHECK(evolution.stats().mutations_ok > 0);
    CHECK(evolution.stats().crossovers_ok > 0);
}

TEST_CASE("evolution: no program structure takes more than its share of a batch while others are on offer") {
    Setup m(ansor_test::make_matmul(256));
    // A model sure that the cache-write sketch is best: every other
    // structure scores below every cache-write program.
    auto cache_written = [](const State &s) { return s.structure_key().find("cache_write") != std::string::npos; };
    auto score = [&](const State &s) { return (cache_written(s) ? 2.0 : 1.0) + std::hash<std::string>()(s.key()) % 1000 * 1e-4; };
    SyntheticModel model(score);
    auto count_cache_written = [&](const std::vector<State> &batch) {
        int n = 0;
        for (const auto &s : batch) n += cache_written(s);
        return n;
    };
    EvolutionOptions eo;
    eo.population = 128;
    eo.generations = 2;
    std::mt19937_64 rng(5);
    {
        eo.max_structure_share = 0.5;
        EvolutionarySearch evolution(m.sampler, m.annotator, annotation(), model, eo);
        auto batch = evolution.search({}, 8, {}, rng);
        REQUIRE(batch.size() == 8);
        std::map<std::string, int> per_structure;
        for (const auto &s : batch) per_structure[s.structure_key()]++;
        for (const auto &kv : per_structure) CHECK(kv.second <= 4);
        CHECK(count_cache_written(batch) >= 1);
        CHECK(count_cache_written(batch) < 8);
    }
    {
        eo.max_structure_share = 1;  // the cap lifted: the best predicted, all cache-written
        EvolutionarySearch evolution(m.sampler, m.annotator, annotation(), model, eo);
        auto batch = evolution.search({}, 8, {}, rng);
        REQUIRE(batch.size() == 8);
        CHECK(count_cache_written(batch) == 8);
    }
}

TEST_CASE("evolution: an untrained model's ties are broken at random, not by the programs' text") {
    Setup m(ansor_test::make_matmul(256));
    SyntheticModel untrained([](const State &) { return 0.0; });
    EvolutionOptions eo;
    eo.population = 128;
    eo.generations = 1;
    eo.max_structure_share = 1;  // no cap: only the tie-breaking spreads the batch
    EvolutionarySearch evolution(m.sampler, m.annotator, annotation(), untrained, eo);
    std::mt19937_64 rng(9);
    std::set<std::string> structures, sampled;
    for (const auto &s : m.samples(64, rng)) sampled.insert(s.structure_key());
    for (const auto &s : evolution.search({}, 16, {}, rng)) structures.insert(s.structure_key());
    REQUIRE(sampled.size() >= 2);
    CHECK(structures.size() >= 2);
}

namespace {

// Times every program by a fixed function of its key, without running it.
class KeyTimedMeasurer : public Measurer {
public:
    std::vector<MeasureResult> measure(const std::vector<State> &states) override {
        std::vector<MeasureResult> out(states.size());
        for (size_t i = 0; i < states.size(); i++) {
            out[i].ok = true;
            out[i].min_ms = out[i].median_ms = 1 + std::hash<std::string>()(states[i].key()) % 1000;
        }
        return out;
    }
};

// The keys of the first `rounds` rounds a tuner of this policy and model measures.
std::vector<std::string> measured_keys(Setup &m, SearchPolicy policy, CostModel &model, int rounds) {
    TunerOptions o;
    o.seed = 11;
    o.measures_per_round = 6;
    o.evolution.population = 64;
    o.evolution.generations = 2;
    o = with_policy(o, policy);
    KeyTimedMeasurer measurer;
    Tuner tuner(m.sampler, m.annotator, annotation(), measurer, model, o);
    std::vector<std::string> keys;
    for (const auto &t : tuner.run_more(rounds * o.measures_per_round).trials) keys.push_back(t.state.key());
    return keys;
}

}  // namespace

TEST_CASE("tuner: until the model can rank, a round measures fresh random programs") {
    Setup m(ansor_test::make_matmul_relu(64));
    RandomCostModel random_scores(5);
    const auto random_search = measured_keys(m, SearchPolicy::Random, random_scores, 2);

    // An untrained XGBoost model scores every program 0: its first round is
    // exactly random search's (same seed, same draws); after training on
    // that round, evolution picks the second.
    XGBoostCostModel xgb(m.dag);
    REQUIRE_FALSE(xgb.can_rank());
    const auto guided = measured_keys(m, SearchPolicy::Evolution, xgb, 2);
    CHECK(xgb.can_rank());
    REQUIRE(guided.size() == random_search.size());
    CHECK(std::vector<std::string>(guided.begin(), guided.begin() + 6) ==
          std::vector<std::string>(random_search.begin(), random_search.begin() + 6));
    CHECK(std::vector<std::string>(guided.begin() + 6, guided.end()) !=
          std::vector<std::string>(random_search.begin() + 6, random_search.end()));

    // A model that ranks from the start (here by a synthetic score) evolves in the first round already.
    SyntheticModel synthetic([](const State &s) { return (double)(std::hash<std::string>()(s.key()) % 97); });
    const auto evolved = measured_keys(m, SearchPolicy::Evolution, synthetic, 1);
    CHECK(evolved != std::vector<std::string>(random_search.begin(), random_search.begin() + 6));
}

TEST_CASE("tuner: the first round spreads over more structures than the rounds after it") {
    Setup m(ansor_test::make_stencil_chain(64, 48, 3));
    // A confident prior: one structure above all others.
    std::string favourite;
    auto score = [&](const State &s) {
        if (favourite.empty()) favourite = s.structure_key();
        return (s.structure_key() == favourite ? 2.0 : 1.0) + std::hash<std::string>()(s.key()) % 1000 * 1e-4;
    };
    SyntheticModel model(score);
    auto largest_structure_share = [&](double first_share, int round, double coverage = 0) {
        TunerOptions o;
        o.seed = 3;
        o.epsilon = 0;
        o.measures_per_round = 16;
        o.evolution.population = 128;
        o.evolution.generations = 1;
        o.evolution.max_structure_share = 0.5;
        o.evolution.first_round_structure_share = first_share;
        o.evolution.sketch_coverage_share = coverage;
        KeyTimedMeasurer measurer;
        Tuner tuner(m.sampler, m.annotator, annotation(), measurer, model, o);
        auto trials = tuner.run_more(2 * o.measures_per_round).trials;
        REQUIRE(trials.size() == 32);
        std::map<std::string, int> per_structure;
        for (int i = 16 * round; i < 16 * (round + 1); i++) per_structure[trials[i].state.structure_key()]++;
        REQUIRE(per_structure.size() >= 2);
        int most = 0;
        for (const auto &kv : per_structure) most = std::max(most, kv.second);
        return most;
    };
    CHECK(largest_structure_share(0.125, 0) <= 2);  // 2 of 16 per structure
    CHECK(largest_structure_share(0.125, 1) > 2);   // then up to half the round
    CHECK(largest_structure_share(0.125, 1) <= 8);
    CHECK(largest_structure_share(0.5, 0) > 2);     // the first round's cap is its own option
    CHECK(largest_structure_share(0.125, 0, 0.25) <= 2);  // sketch coverage keeps to the cap too
}

TEST_CASE("tuner: every sketch is measured early, even one the model ranks last") {
    Setup m(ansor_test::make_stencil_chain(64, 48, 3));
    const int sketches = (int)m.sampler.sketches().size();
    REQUIRE(sketches >= 4);
    REQUIRE(sketches <= 16 + 4);
    // The model ranks programs by the sketch they came from: sketch 0 first,
    // the last sketch last.
    SyntheticModel model([](const State &s) {
        return -(double)s.sketch() + std::hash<std::string>()(s.key()) % 1000 * 1e-4;
    });
    auto measured_sketches = [&](double coverage_share, int rounds) {
        TunerOptions o;
        o.seed = 3;
        o.epsilon = 0;
        o.measures_per_round = 16;
        o.evolution.population = 256;
        o.evolution.generations = 1;
        o.evolution.sketch_coverage_share = coverage_share;
        KeyTimedMeasurer measurer;
        Tuner tuner(m.sampler, m.annotator, annotation(), measurer, model, o);
        std::set<int> seen;
        for (const auto &t : tuner.run_more(rounds * o.measures_per_round).trials) {
            CHECK(t.state.sketch() >= -1);
            CHECK(t.state.sketch() < sketches);
            seen.insert(t.state.sketch());
        }
        seen.erase(-1);
        return seen;
    };
    // With coverage the first round takes one program of each sketch, best
    // ranked first; the rest follow in the next round's coverage share.
    const std::set<int> first = measured_sketches(0.25, 1);
    CHECK((int)first.size() == std::min(sketches, 16));
    const std::set<int> two = measured_sketches(0.25, 2);
    CHECK((int)two.size() == sketches);
    // Without it the model's favourites fill the rounds and the last sketch is never measured.
    CHECK_FALSE(measured_sketches(0, 2).count(sketches - 1));
}

TEST_CASE("evolution: children of mutation and crossover compute what the reference computes") {
    std::vector<std::pair<std::string, ansor_test::Pipe>> pipes = {
        {"matmul_relu", ansor_test::make_matmul_relu(64)}, {"blur", ansor_test::make_blur(128, 64)},
        {"padded_conv", ansor_test::make_padded_conv()},   {"chain", ansor_test::make_elementwise_chain()},
        {"norm", ansor_test::make_norm(64)},
    };
    for (auto &[name, pipe] : pipes) {
        CAPTURE(name);
        Setup m(pipe);
        Mutator mutator(m.annotator, annotation());
        std::mt19937_64 rng(13);
        auto parents = m.samples(20, rng);
        std::vector<State> children;
        for (size_t i = 0; i + 1 < parents.size() && children.size() < 2; i += 2) {
            if (auto c = crossover(parents[i], parents[i + 1], {}, m.annotator, rng)) children.push_back(c->state);
        }
        for (size_t i = 0; i < parents.size() && children.size() < 4; i++) {
            if (auto c = mutator.mutate(parents[i], rng)) children.push_back(*c);
        }
        CHECK(children.size() == 4);
        ForkMeasurer measurer(m.dag, ansor_test::correctness_options());
        auto results = measurer.measure(children);
        for (size_t i = 0; i < children.size(); i++) {
            CAPTURE(children[i].source());
            CHECK_MESSAGE(results[i].ok, results[i].error);
        }
    }
}
