// The learned cost model: the pack-sum objective recovers per-statement
// values from per-program labels, a saved model predicts the same after
// loading, the per-pipeline model learns to rank real programs by a known
// (fake) time, one TrainedModel serves two pipelines' cost models, and
// XGBoost's failures surface as clear errors. Nothing is measured.
#include "model/make_cost_model.h"
#include "model/model_blend.h"
#include "model/random_cost_model.h"
#include "model/ranking_pairs.h"
#include "model/xgboost_cost_model.h"
#include "search/program_sampler.h"
#include "sketch/sketch_generator.h"
#include "fake_machine.h"
#include "test_pipelines.h"
#include "util/errors.h"

#include <doctest/doctest.h>

#include <cmath>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>

using namespace ansor;
using ansor_test::fake_results;
using ansor_test::fake_throughputs;
using ansor_test::MatmulPrograms;
using ansor_test::pairwise_accuracy;

namespace {

// Programs of 1-4 statements with 4 features each; only column 0 matters:
// a statement is worth v / 4 (v = column 0, in [0, 1]) and a program's label
// is the sum over its statements, so labels lie in [0, 1].
struct Synthetic {
    static constexpr int kFeatures = 4;
    ProgramBatch batch{kFeatures};
    std::vector<float> labels;
    std::vector<float> statement_values;

    Synthetic(int programs, uint64_t seed) {
        std::mt19937_64 rng(seed);
        std::uniform_real_distribution<float> u(0, 1);
        for (int p = 0; p < programs; p++) {
            int n = 1 + (int)(rng() % 4);
            std::vector<float> rows;
            float label = 0;
            for (int s = 0; s < n; s++) {
                float v = u(rng);
                rows.insert(rows.end(), {v, u(rng), u(rng), u(rng)});
                statement_values.push_back(v / 4);
                label += v / 4;
            }
            batch.add(rows.data(), n);
            labels.push_back(label);
        }
    }
};

std::string temp_path(const std::string &name) {
    return (std::filesystem::temp_directory_path() / ("ansor_test_" + std::to_string(::getpid()) + "_" + name)).string();
}

}  // namespace

TEST_CASE("cost model: normalised throughputs are best time / time per pipeline, 0 for failures") {
    auto y = normalized_throughputs({"a", "a", "b", "a", "b", "b"},
                                    {2.0, 4.0, 10.0, std::numeric_limits<double>::infinity(), 5.0, -1});
    std::vector<float> expected = {1.f, 0.5f, 0.5f, 0.f, 1.f, 0.f};
    CHECK(y == expected);
}

TEST_CASE("cost model: pack-sum training recovers statement values from program labels") {
    Synthetic train(800, 1), test(200, 2);
    PackSumXGBoost model(Synthetic::kFeatures);
    CHECK(!model.trained());
    // Untrained: every score is 0.
    PackSumPrediction before = model.predict(test.batch);
    CHECK(before.programs == std::vector<double>(test.labels.size(), 0.0));

    model.train(train.batch, train.labels);
    REQUIRE(model.trained());
    CHECK(model.rounds() > 0);
    PackSumPrediction p = model.predict(test.batch);
    REQUIRE(p.programs.size() == test.labels.size());
    REQUIRE(p.statements.size() == test.batch.statements());

    std::vector<double> labels(test.labels.begin(), test.labels.end());
    const double accuracy = pairwise_accuracy(labels, p.programs);
    MESSAGE("held-out pairwise accuracy " << accuracy);
    CHECK(accuracy > 0.9);
    double program_error = 0, statement_error = 0;
    for (size_t i = 0; i < labels.size(); i++) program_error += std::abs(p.programs[i] - labels[i]);
    for (size_t r = 0; r < p.statements.size(); r++) statement_error += std::abs(p.statements[r] - test.statement_values[r]);
    program_error /= labels.size();
    statement_error /= p.statements.size();
    MESSAGE("mean |error|: programs " << program_error << ", statements " << statement_error);
    CHECK(program_error < 0.05);
    // Each statement gets its own value, not its program's label: the sum
    // is what was fitted.
    CHECK(statement_error < 0.03);
    // The program score is the sum of its statement scores.
    for (size_t i = 0; i < labels.size(); i++) {
        double sum = 0;
        for (size_t r = test.batch.begin[i]; r < test.batch.begin[i + 1]; r++) sum += p.statements[r];
        CHECK(p.programs[i] == doctest::Approx(sum));
    }
}

TEST_CASE("cost model: the pairwise and LambdaRank objectives order programs within each group") {
    // Two groups on the same synthetic programs: in group 0 the label rises
    // with column 0, in group 1 (column 1 set to 1) it falls. A model that
    // compared programs across groups would be told both orders at once.
    Synthetic a(400, 7), b(400, 8), test_a(100, 9), test_b(100, 10);
    auto mark = [](Synthetic &s, bool second) {
        for (size_t r = 0; r < s.batch.statements(); r++) s.batch.rows[r * Synthetic::kFeatures + 1] = second ? 1.f : 0.f;
        if (second) {
            for (float &y : s.labels) y = 1 - y;
        }
    };
    mark(b, true);
    mark(test_b, true);
    mark(a, false);
    mark(test_a, false);
    ProgramBatch train(Synthetic::kFeatures);
    std::vector<float> labels;
    std::vector<int> groups;
    for (int g = 0; g < 2; g++) {
        const Synthetic &s = g ? b : a;
        for (size_t i = 0; i < s.labels.size(); i++) {
            train.add(s.batch.rows.data() + s.batch.begin[i] * Synthetic::kFeatures, s.batch.statements(i));
            labels.push_back(s.labels[i]);
            groups.push_back(g);
        }
    }
    // 2 x 400 programs make 159,600 pairs: all of them, or 5,000 drawn.
    for (auto [objective, max_pairs] : {std::pair{PackSumParams::Objective::Pairwise, PackSumParams().max_pairs},
                                        std::pair{PackSumParams::Objective::Pairwise, (size_t)5000},
                                        std::pair{PackSumParams::Objective::LambdaRank, (size_t)5000}}) {
        CAPTURE(max_pairs);
        CAPTURE((int)objective);
        PackSumParams params;
        params.objective = objective;
        params.max_rounds = 100;
        params.max_pairs = max_pairs;
        PackSumXGBoost model(Synthetic::kFeatures, params);
        CHECK_THROWS_AS(model.train(train, labels, std::vector<int>(3, 0)), std::invalid_argument);
        model.train(train, labels, groups);
        REQUIRE(model.trained());
        for (const Synthetic *t : {&test_a, &test_b}) {
            std::vector<double> truth(t->labels.begin(), t->labels.end());
            const double accuracy = pairwise_accuracy(truth, model.predict(t->batch).programs);
            MESSAGE("held-out pairwise accuracy " << accuracy);
            CHECK(accuracy > 0.8);  // 0.5 is chance; a model mixing the groups gets one of them backwards
        }
    }
}

TEST_CASE("cost model: pipeline ids become groups, objectives are named") {
    CHECK(pipeline_groups({"gmm", "c2d", "gmm", "dep", "c2d"}) == std::vector<int>{0, 1, 0, 2, 1});
    CHECK(objective_from_name("square") == PackSumParams::Objective::WeightedSquare);
    CHECK(objective_from_name("pairwise") == PackSumParams::Objective::Pairwise);
    CHECK(objective_from_name("lambdarank") == PackSumParams::Objective::LambdaRank);
    CHECK_THROWS_WITH_AS(objective_from_name("rank"), doctest::Contains("'rank'"), std::invalid_argument);
}

TEST_CASE("cost model: pair weighting sets each group's share of the pairwise loss") {
    // Group 0: 40 programs, group 1: 4, all labels distinct.
    std::vector<float> y;
    std::vector<int> groups;
    for (int i = 0; i < 40; i++) {
        y.push_back(0.01f * (i + 1));
        groups.push_back(0);
    }
    for (int i = 0; i < 4; i++) {
        y.push_back(0.2f * (i + 1));
        groups.push_back(1);
    }
    // Per group: pairs, and the sum of each pair's weight over its |Δy| (its multiplier).
    auto shares = [&](PackSumParams::PairWeighting w) {
        const PairList pairs = ordered_pairs(y, groups, 1000000, 0, w);
        std::vector<double> count(2, 0), multiplier(2, 0);
        for (const OrderedPair &p : pairs) {
            const int g = groups[p.faster];
            CHECK(groups[p.slower] == g);
            CHECK(y[p.faster] > y[p.slower]);
            count[g]++;
            multiplier[g] += p.weight / (y[p.faster] - y[p.slower]);
        }
        CHECK(count[0] == 780);
        CHECK(count[1] == 6);
        // The multipliers average 1, so the loss keeps its scale.
        CHECK((multiplier[0] + multiplier[1]) / (count[0] + count[1]) == doctest::Approx(1.0));
        return multiplier[0] / multiplier[1];
    };
    CHECK(shares(PackSumParams::PairWeighting::Pairs) == doctest::Approx(780.0 / 6));
    CHECK(shares(PackSumParams::PairWeighting::Programs) == doctest::Approx(40.0 / 4));
    CHECK(shares(PackSumParams::PairWeighting::Pipelines) == doctest::Approx(1.0));
    // Above max_pairs, groups are drawn by their share: about as many pairs of each.
    const PairList drawn = ordered_pairs(y, groups, 300, 1, PackSumParams::PairWeighting::Pipelines);
    CHECK(drawn.size() == 300);
    const auto small = std::count_if(drawn.begin(), drawn.end(), [&](const OrderedPair &p) { return groups[p.faster] == 1; });
    // Half the draws each, less group 1's draws of one program twice (a
    // quarter of them, against a fortieth of group 0's): about 130.
    CHECK(small > 90);
    CHECK(small < 170);
    CHECK(pair_weighting_from_name("programs") == PackSumParams::PairWeighting::Programs);
    CHECK(std::string(pair_weighting_name(PackSumParams::PairWeighting::Pipelines)) == "pipelines");
    CHECK_THROWS_WITH_AS(pair_weighting_from_name("all"), doctest::Contains("'all'"), std::invalid_argument);
}

TEST_CASE("cost model: LambdaRank weighs a pair by how far a swap moves it in the discounted ranking") {
    // One group of four programs, scored in the order 0 > 1 > 2 > 3 (ranks
    // 1..4, discounts 1, 0.631, 0.5, 0.431), and a second group of two.
    const std::vector<double> scores = {4, 3, 2, 1, 0.5, 0.7};
    const std::vector<int> groups = {7, 7, 7, 7, 9, 9};
    const PairList pairs = {{0, 1, 1.f}, {2, 3, 1.f}, {3, 0, 1.f}, {4, 5, 1.f}};
    const std::vector<float> w = rank_swap_weights(pairs, scores, groups);
    REQUIRE(w.size() == 4);
    const double d[] = {1.0, 1 / std::log2(3.0), 0.5, 1 / std::log2(5.0)};
    const double raw[] = {d[0] - d[1], d[2] - d[3], d[0] - d[3]};
    const double mean = (raw[0] + raw[1] + raw[2]) / 3;
    // Pairs at the top of the ranking weigh most; the order of the pair's
    // programs (which is faster) does not matter, only their ranks.
    CHECK(w[0] == doctest::Approx(raw[0] / mean));
    CHECK(w[1] == doctest::Approx(raw[1] / mean));
    CHECK(w[2] == doctest::Approx(raw[2] / mean));
    CHECK(w[2] > w[0]);
    CHECK(w[0] > w[1]);
    // Each group's pairs average 1: a group's total weight is left as it was.
    CHECK(w[3] == doctest::Approx(1.0));
}

TEST_CASE("cost model: feature gains point at the one column that decides the labels") {
    Synthetic train(400, 5);
    PackSumParams params;
    params.max_rounds = 40;
    PackSumXGBoost model(Synthetic::kFeatures, params);
    CHECK(model.feature_gains().empty());  // untrained
    model.train(train.batch, train.labels);
    std::vector<double> gains = model.feature_gains();
    REQUIRE(gains.size() == (size_t)Synthetic::kFeatures);
    double others = gains[1] + gains[2] + gains[3];
    CHECK(gains[0] > 0);
    CHECK(gains[0] > 3 * others);  // columns 1-3 are noise (deep trees still split on them a little)
}

TEST_CASE("cost model: a saved model predicts the same after loading") {
    Synthetic train(100, 3), test(50, 4);
    PackSumParams params;
    params.max_rounds = 30;
    PackSumXGBoost model(Synthetic::kFeatures, params);
    model.train(train.batch, train.labels);
    const PackSumPrediction expected = model.predict(test.batch);

    PackSumXGBoost from_bytes(Synthetic::kFeatures, params);
    from_bytes.load(model.save());
    CHECK(from_bytes.rounds() == model.rounds());
    CHECK(from_bytes.predict(test.batch).statements == expected.statements);

    const std::string path = temp_path("model.ubj");
    model.save_file(path);
    PackSumXGBoost from_file(Synthetic::kFeatures, params);
    from_file.load_file(path);
    std::remove(path.c_str());
    CHECK(from_file.predict(test.batch).programs == expected.programs);

    // An untrained model saves as nothing and loads back untrained.
    PackSumXGBoost untrained(Synthetic::kFeatures);
    CHECK(untrained.save().empty());
    from_bytes.load(untrained.save());
    CHECK(!from_bytes.trained());

    // A model of another feature count is refused.
    PackSumXGBoost wider(Synthetic::kFeatures + 1);
    CHECK_THROWS_WITH_AS(wider.load(model.save()), doctest::Contains("features"), std::runtime_error);
}

TEST_CASE("cost model: a blend of models scores every statement with the weighted sum of their scores") {
    Synthetic train(200, 6), test(60, 7);
    PackSumParams shallow;
    shallow.max_depth = 2;
    shallow.max_rounds = 25;
    PackSumParams deep;
    deep.max_depth = 6;
    deep.max_rounds = 15;
    deep.objective = PackSumParams::Objective::Pairwise;
    PackSumXGBoost a(Synthetic::kFeatures, shallow), b(Synthetic::kFeatures, deep);
    a.train(train.batch, train.labels);
    b.train(train.batch, train.labels);
    const PackSumPrediction pa = a.predict(test.batch), pb = b.predict(test.batch);

    const PackSumXGBoost blend = blend_pack_sum_models({&a, &b}, {0.5, 3.0});
    CHECK(blend.rounds() == a.rounds() + b.rounds());
    const PackSumPrediction p = blend.predict(test.batch);
    REQUIRE(p.statements.size() == pa.statements.size());
    double worst = 0;
    for (size_t i = 0; i < p.statements.size(); i++) {
        worst = std::max(worst, std::abs(p.statements[i] - (0.5 * pa.statements[i] + 3.0 * pb.statements[i])));
    }
    CHECK(worst < 1e-4);
    // The scores differ from either member's, so the check above is not met by a copy.
    CHECK(p.programs != pa.programs);
    CHECK(p.programs != pb.programs);

    // It saves and loads back as any model does.
    PackSumXGBoost loaded(Synthetic::kFeatures);
    loaded.load(blend.save());
    CHECK(loaded.predict(test.batch).statements == p.statements);

    PackSumXGBoost untrained(Synthetic::kFeatures);
    CHECK_THROWS_WITH_AS(blend_pack_sum_models({&a, &untrained}, {1, 1}), doctest::Contains("untrained"),
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(blend_pack_sum_models({&a, &b}, {1, 0}), doctest::Contains("not positive"),
                         std::invalid_argument);
    CHECK_THROWS_AS(blend_pack_sum_models({&a, &b}, {1}), std::invalid_argument);
}

TEST_CASE("cost model: XGBoost failures become errors that say what failed") {
    const std::string path = temp_path("garbage.ubj");
    {
        std::ofstream f(path, std::ios::binary);
        f << "this is not an XGBoost model";
    }
    PackSumXGBoost model(Synthetic::kFeatures);
    std::string message;
    try {
        model.load_file(path);
    } catch (const std::runtime_error &e) {
        message = e.what();
    }
    std::remove(path.c_str());
    MESSAGE(message);
    CHECK(message.find(path) != std::string::npos);
    CHECK(message.find("XGBoosterLoadModelFromBuffer failed") != std::string::npos);
    CHECK(message.find("Stack trace") == std::string::npos);
    CHECK(!model.trained());

    CHECK_THROWS_AS(model.load_file(temp_path("missing.ubj")), std::runtime_error);
    // A bad parameter reaches XGBoost's own check.
    PackSumParams bad;
    bad.tree_method = "no_such_method";
    PackSumXGBoost bad_model(Synthetic::kFeatures, bad);
    Synthetic data(10, 5);
    CHECK_THROWS_WITH_AS(bad_model.train(data.batch, data.labels), doctest::Contains("XGBoost"), std::runtime_error);
    CHECK(!bad_model.trained());
    // Labels that do not match the programs are refused before XGBoost.
    CHECK_THROWS_AS(model.train(data.batch, std::vector<float>(3, 0.f)), std::invalid_argument);
}

TEST_CASE("cost model: the XGBoost model learns to rank matmul programs by a known time") {
    MatmulPrograms programs(11);
    const PipelineDAG &dag = programs.dag;
    const std::vector<State> &train = programs.train, &test = programs.test;

    XGBoostCostModel model(dag);
    CHECK(model.name() == "xgboost");
    // Untrained: every program ties at 0.
    CHECK(model.predict(test) == std::vector<double>(test.size(), 0.0));

    model.update(train, fake_results(train));
    CHECK(model.trained_model().training_programs() == train.size());
    REQUIRE(model.trained_model().trained());

    std::vector<double> scores = model.predict(test);
    double accuracy = pairwise_accuracy(fake_throughputs(test), scores);
    MESSAGE("held-out pairwise accuracy " << accuracy);
    CHECK(accuracy > 0.85);

    // Per-statement scores name the model's statements and sum to the score.
    std::vector<ProgramPrediction> stages = model.predict_stages(test);
    REQUIRE(stages.size() == test.size());
    for (size_t i = 0; i < test.size(); i++) {
        const ProgramPrediction &p = stages[i];
        CHECK(p.score == doctest::Approx(scores[i]));
        REQUIRE(p.stage_scores.size() == p.stage_funcs.size());
        REQUIRE(p.stage_scores.size() == p.stage_indices.size());
        REQUIRE(!p.stage_scores.empty());
        double sum = 0;
        for (double v : p.stage_scores) sum += v;
        CHECK(sum == doctest::Approx(p.score).epsilon(1e-4));
        for (const auto &f : p.stage_funcs) {
            // A DAG Func or one created by rfactor / cache write.
            CHECK((dag.index_of(f).has_value() || f.find("_intm") != std::string::npos));
        }
    }

    // A state that does not replay scores -infinity; the others are unaffected.
    State broken = test[0];
    broken.add(std::make_shared<SplitStep>(ansor_test::resolve(dag, "matmul"), 1, "no_such_loop", std::vector<int64_t>{4}));
    std::vector<double> mixed = model.predict({test[1], broken});
    CHECK(mixed[0] == doctest::Approx(scores[1]));
    CHECK(mixed[1] == -std::numeric_limits<double>::infinity());
    CHECK(model.predict_stages({broken})[0].score == -std::numeric_limits<double>::infinity());
}

TEST_CASE("cost model: the search's XGBoost model on the pairwise objective ranks matmul programs too") {
    MatmulPrograms programs(12);
    std::unique_ptr<CostModel> model = make_cost_model(CostModelKind::XGBoost, programs.dag, 0, ModelObjective::Pairwise);
    model->update(programs.train, fake_results(programs.train));
    const double accuracy = pairwise_accuracy(fake_throughputs(programs.test), model->predict(programs.test));
    MESSAGE("held-out pairwise accuracy " << accuracy);
    CHECK(accuracy > 0.85);
}

TEST_CASE("cost model: programs of another pipeline join the training data with their own normalisation") {
    auto pipe = ansor_test::make_matmul(64);
    PipelineDAG dag(pipe.functions(), 2);
    XGBoostCostModel model(dag);
    ProgramBatch foreign(features::kCount);
    std::vector<double> ms;
    for (int p = 0; p < 30; p++) {
        std::vector<float> rows(2 * features::kCount, 0.f);
        rows[0] = rows[features::kCount] = (float)p;
        foreign.add(rows.data(), 2);
        ms.push_back(1.0 + p);
    }
    model.trained_model().add_programs("another pipeline", foreign, ms);
    CHECK(model.trained_model().training_programs() == 30);
    model.trained_model().retrain();
    CHECK(model.can_rank());
    CHECK_THROWS_AS(model.trained_model().add_programs("x", foreign, {1.0}), std::invalid_argument);
}

TEST_CASE("cost model: one TrainedModel serves the cost models of two pipelines") {
    MatmulPrograms a(31, 64), b(32, 48);
    auto shared = std::make_shared<TrainedModel>();
    XGBoostCostModel model_a(a.dag, shared, "a"), model_b(b.dag, shared, "b");
    CHECK(model_a.name() == "xgboost-shared");
    CHECK_FALSE(model_b.can_rank());

    model_a.update(a.train, fake_results(a.train));
    CHECK(shared->retrains() == 1);
    // b's model ranks with the trees a's programs trained, before b has measured any.
    CHECK(model_b.can_rank());
    std::vector<double> before = model_b.predict(b.test);
    CHECK(std::any_of(before.begin(), before.end(), [&](double x) { return x != before[0]; }));
    // Sharing changes nothing for a: a model of its own, trained on the same programs, scores the same.
    XGBoostCostModel own(a.dag);
    own.update(a.train, fake_results(a.train));
    CHECK(model_a.predict(a.test) == own.predict(a.test));

    model_b.update(b.train, fake_results(b.train));
    CHECK(shared->retrains() == 2);
    const std::vector<std::string> &groups = shared->data().groups;
    REQUIRE(groups.size() == a.train.size() + b.train.size());
    CHECK(std::count(groups.begin(), groups.end(), "a") == (long)a.train.size());
    CHECK(std::count(groups.begin(), groups.end(), "b") == (long)b.train.size());
    // Both pipelines' programs are ranked by the one model trained on both.
    for (MatmulPrograms *p : {&a, &b}) {
        XGBoostCostModel &model = p == &a ? model_a : model_b;
        const double accuracy = pairwise_accuracy(fake_throughputs(p->test), model.predict(p->test));
        MESSAGE("held-out pairwise accuracy " << accuracy);
        CHECK(accuracy > 0.8);
    }
    CHECK_THROWS_AS(XGBoostCostModel(a.dag, nullptr, "a"), std::invalid_argument);
}

TEST_CASE("cost model: the random model gives reproducible scores in [0, 1)") {
    auto pipe = ansor_test::make_matmul(64);
    PipelineDAG dag(pipe.functions(), 2);
    std::vector<State> states(5, State(dag));
    RandomCostModel a(3), b(3);
    auto sa = a.predict(states), sb = b.predict(states);
    CHECK(sa == sb);
    for (double s : sa) CHECK((s >= 0 && s < 1));
    CHECK(a.name() == "random");
}
