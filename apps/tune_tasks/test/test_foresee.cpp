// Tuner::suggest (foresee tuning's entry into the search) and the shared
// cost models of FamilySeer, pretraining sets included, on small
// convolutions with a fake measurer.
#include "network/shared_cost_model.h"
#include "network/task_run.h"

#include "features/program_features.h"
#include "sketch/sketch_generator.h"

#include "records/pretraining_set.h"
#include "util/errors.h"

#include <doctest/doctest.h>

using namespace ansor;

namespace {

const Halide::Target target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");

TaskSpec conv(const std::string &name, int h, int ci) {
    TaskSpec t;
    t.name = name;
    t.generator = "conv2d_bias_act";
    t.params = {{"N", "1"}, {"H", std::to_string(h)}, {"W", std::to_string(h)}, {"CI", std::to_string(ci)}, {"CO", "8"},
                {"k", "3"}, {"s", "1"}, {"p", "1"}, {"act", "1"}, {"residual", "0"}};
    t.networks = {"n"};
    return t;
}

TuningSetup setup() {
    TuningSetup s;
    s.target = target;
    return s;
}

// Every program "runs" in a time drawn from its key, nothing is compiled.
class FakeMeasurer : public ansor::Measurer {
public:
    std::vector<ansor::MeasureResult> measure(const std::vector<ansor::State> &states) override {
        std::vector<ansor::MeasureResult> out;
        for (const auto &s : states) {
            ansor::MeasureResult r;
            r.ok = true;
            r.min_ms = r.median_ms = 1 + (double)(std::hash<std::string>()(s.key()) % 1000) / 100;
            out.push_back(r);
        }
        return out;
    }
};

struct Sampling {
    explicit Sampling(const ansor::PipelineDAG &dag) : annotator(dag, target, options()), sampler(ansor::generate_sketches({dag, target}), annotator) {}
    static ansor::AnnotationOptions options() {
        ansor::AnnotationOptions o;
        o.parallelism = 2;
        return o;
    }
    std::vector<ansor::State> draw(int n, uint64_t seed) {
        std::mt19937_64 rng(seed);
        std::vector<ansor::State> out;
        while ((int)out.size() < n) {
            if (auto s = sampler.sample(rng)) out.push_back(*s);
        }
        return out;
    }
    ansor::RandomAnnotator annotator;
    ansor::ProgramSampler sampler;
};

}  // namespace

namespace {

// A task tuned on the fake machine with random scores: rounds of `round`
// programs, a small evolution.
std::unique_ptr<TaskRun> fake_task(int round) {
    TuningSetup t = setup();
    t.options = ansor::Options::from_map({{"HL_ANSOR_MEASURES_PER_ROUND", std::to_string(round)},
                                          {"HL_ANSOR_POPULATION", "32"},
                                          {"HL_ANSOR_GENERATIONS", "1"},
                                          {"HL_ANSOR_COST_MODEL", "random"}});
    auto run = std::make_unique<TaskRun>(conv("a", 8, 4), t);
    ansor::SessionParts parts;
    parts.make_measurer = [](const ansor::PipelineDAG &, const ansor::MeasureOptions &) {
        return std::make_unique<FakeMeasurer>();
    };
    run->start(parts);
    return run;
}

}  // namespace

TEST_CASE("foresee: suggested programs are measured first, up to the share of a round") {
    std::unique_ptr<TaskRun> a = fake_task(4);
    Sampling s(a->dag());
    std::vector<ansor::State> suggested = s.draw(3, 7);
    std::set<std::string> keys;
    for (const auto &x : suggested) keys.insert(x.key());
    REQUIRE(keys.size() == 3);
    a->suggest(suggested);
    REQUIRE(a->tune(4) == 4);
    std::vector<ansor::State> measured = a->last_unit_best(4);
    REQUIRE(measured.size() == 4);
    // Half of a round of 4 (the default share): two suggestions, then the search's own.
    int from_suggestions = 0;
    for (const auto &m : measured) from_suggestions += (int)keys.count(m.key());
    CHECK(from_suggestions == 2);
    CHECK(a->transferred_measured() == 2);
    // The third suggestion was dropped, not kept for the next round.
    a->tune(4);
    int later = 0;
    for (const auto &m : a->last_unit_best(4)) later += (int)keys.count(m.key());
    CHECK(later == 0);
    CHECK(a->transferred_measured() == 2);
}

TEST_CASE("foresee: an already measured suggestion is not measured again") {
    std::unique_ptr<TaskRun> a = fake_task(2);
    REQUIRE(a->tune(2) == 2);
    ansor::State again = a->last_unit_best(1).at(0);
    a->suggest({again});
    REQUIRE(a->tune(2) == 2);
    for (const auto &m : a->last_unit_best(2)) CHECK(m.key() != again.key());
    CHECK(a->transferred_measured() == 0);
}

TEST_CASE("family models: one model learns from every task of its group") {
    TaskRun a(conv("a", 8, 4), setup()), b(conv("b", 10, 6), setup());
    SharedModelPool pool(0, ansor::PackSumParams::Objective::WeightedSquare);
    auto ma = pool.view("conv", "a", a.dag());
    auto mb = pool.view("conv", "b", b.dag());
    auto other = pool.view("other", "a", a.dag());
    Sampling sa(a.dag()), sb(b.dag());
    std::vector<ansor::State> pa = sa.draw(12, 1), pb = sb.draw(12, 2);
    FakeMeasurer measurer;
    // Untrained: every replayable program scores 0.
    for (double x : mb->predict(pb)) CHECK(x == 0);
    ma->update(pa, measurer.measure(pa));
    const auto &group = *pool.groups().at("conv");
    CHECK(group.data().groups.size() == 12);
    CHECK(group.retrains() == 1);
    // b's view predicts with the trees a's programs trained.
    std::vector<double> scores = mb->predict(pb);
    CHECK(std::any_of(scores.begin(), scores.end(), [](double x) { return x != 0; }));
    mb->update(pb, measurer.measure(pb));
    CHECK(group.data().groups.size() == 24);
    CHECK(std::count(group.data().groups.begin(), group.data().groups.end(), "b") == 12);
    // Another group is untouched.
    for (double x : other->predict(pa)) CHECK(x == 0);
}

namespace {

// `states` of `run`'s pipeline, featurised as a pretraining set holds them, with fake times.
ansor::PretrainingPipeline featurised(const TaskRun &run, const std::vector<ansor::State> &states) {
    ansor::PretrainingPipeline p;
    p.key = run.key().hash;
    p.name = run.key().hash;
    ansor::FeatureExtractor extractor(run.dag());
    FakeMeasurer measurer;
    std::vector<ansor::MeasureResult> results = measurer.measure(states);
    for (size_t i = 0; i < states.size(); i++) {
        std::vector<float> rows;
        for (const ansor::StageFeatures &f : extractor.extract(states[i].replay()))
            rows.insert(rows.end(), f.values.begin(), f.values.end());
        p.programs.add(rows.data(), rows.size() / ansor::features::kCount);
        p.ms.push_back(results[i].min_ms);
    }
    return p;
}

}  // namespace

TEST_CASE("family models: a pretraining set trains every group, never on the tasks' own pipelines") {
    TaskRun a(conv("a", 8, 4), setup()), b(conv("b", 10, 6), setup());
    Sampling sa(a.dag()), sb(b.dag());
    ansor::PretrainingSet set;
    set.target = target.to_string();
    set.pipelines.push_back(featurised(a, sa.draw(5, 3)));
    set.pipelines.push_back(featurised(b, sb.draw(12, 4)));
    const std::vector<std::string> tuned = {a.key().hash};

    SharedModelPool pool(0, ansor::PackSumParams::Objective::WeightedSquare);
    CHECK_THROWS_WITH_AS(pool.pretrain(set, tuned, "x86-64-linux-sse41", "set.jsonl"),
                         doctest::Contains("set.jsonl was measured on target"), ansor::UserError);
    CHECK_THROWS_WITH_AS(pool.pretrain(set, {a.key().hash, b.key().hash}, target.to_string(), "set.jsonl"),
                         doctest::Contains("no programs of pipelines other than the tasks'"), ansor::UserError);

    ansor::PretrainingSummary summary = pool.pretrain(set, tuned, target.to_string(), "set.jsonl");
    CHECK(summary.programs == 12);  // b's; a is being tuned
    CHECK(summary.pipelines == 1);
    auto ma = pool.view("conv", "a", a.dag());
    auto other = pool.view("other", "a", a.dag());
    for (const char *name : {"conv", "other"}) {
        const auto &group = *pool.groups().at(name);
        CHECK(group.data().groups == std::vector<std::string>(12, b.key().hash));
        CHECK(group.retrains() == 1);
    }
    // a's programs are ranked before a has measured any.
    CHECK(ma->can_rank());
    std::vector<double> scores = ma->predict(sa.draw(8, 5));
    CHECK(std::any_of(scores.begin(), scores.end(), [&](double x) { return x != scores[0]; }));
}
