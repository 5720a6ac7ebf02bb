// Pretraining sets (HL_ANSOR_PRETRAIN): featurised programs of other
// pipelines survive a write and a read, bad files are refused with the
// file and line named, and a model pretrained on one matmul's programs
// ranks another matmul's programs before it has measured any; through the
// CostModel interface the random model refuses a set. Nothing is
// measured: times come from the fake machine of fake_machine.h.
#include "fake_machine.h"
#include "features/program_features.h"
#include "model/make_cost_model.h"
#include "model/xgboost_cost_model.h"
#include "records/pipeline_key.h"
#include "records/pretraining_set.h"
#include "util/errors.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

using namespace ansor;
using ansor_test::MatmulPrograms;

namespace {

// A fresh path in the temp directory, removed when the test ends.
struct TempPath {
    std::string path;
    explicit TempPath(const std::string &name)
        : path((std::filesystem::temp_directory_path() /
                ("ansor_pretrain_" + std::to_string(::getpid()) + "_" + name))
                   .string()) {
        std::filesystem::remove(path);
    }
    ~TempPath() { std::filesystem::remove(path); }
};

// The programs of `states`, featurised, with their fake-machine times.
PretrainingPipeline featurised(const PipelineDAG &dag, const std::vector<State> &states, const std::string &name) {
    PretrainingPipeline p;
    p.key = make_pipeline_key(dag).hash;
    p.name = name;
    FeatureExtractor extractor(dag);
    std::vector<MeasureResult> results = ansor_test::fake_results(states);
    for (size_t i = 0; i < states.size(); i++) {
        std::vector<float> rows;
        for (const StageFeatures &f : extractor.extract(states[i].replay())) {
            rows.insert(rows.end(), f.values.begin(), f.values.end());
        }
        p.programs.add(rows.data(), rows.size() / features::kCount);
        p.ms.push_back(results[i].ok ? results[i].min_ms : std::numeric_limits<double>::infinity());
    }
    return p;
}

// A small hand-made set: pipeline "a" with two programs (one failed), "b" with one.
PretrainingSet small_set() {
    PretrainingSet set;
    set.target = ansor_test::fake_machine_target().to_string();
    for (const char *key : {"a", "b"}) {
        PretrainingPipeline p;
        p.key = key;
        p.name = std::string("pipeline ") + key;
        set.pipelines.push_back(std::move(p));
    }
    std::vector<float> two_rows(2 * features::kCount), one_row(features::kCount);
    for (size_t i = 0; i < two_rows.size(); i++) two_rows[i] = 0.5f * (float)i;
    for (size_t i = 0; i < one_row.size(); i++) one_row[i] = 1e6f + (float)i;
    set.pipelines[0].programs.add(two_rows.data(), 2);
    set.pipelines[0].ms.push_back(1.25);
    set.pipelines[0].programs.add(one_row.data(), 1);
    set.pipelines[0].ms.push_back(std::numeric_limits<double>::infinity());
    set.pipelines[1].programs.add(one_row.data(), 1);
    set.pipelines[1].ms.push_back(3.0);
    return set;
}

std::vector<std::string> lines_of(const std::string &path) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}

void write_lines(const std::string &path, const std::vector<std::string> &lines) {
    std::ofstream out(path, std::ios::trunc);
    for (const auto &l : lines) out << l << "\n";
}

}  // namespace

TEST_CASE("pretraining: a set reads back as written, failures included") {
    TempPath file("roundtrip.jsonl");
    const PretrainingSet set = small_set();
    write_pretraining_set(file.path, set);
    const PretrainingSet back = read_pretraining_set(file.path);
    CHECK(back.target == set.target);
    REQUIRE(back.pipelines.size() == 2);
    CHECK(back.programs() == 3);
    for (size_t p = 0; p < 2; p++) {
        CHECK(back.pipelines[p].key == set.pipelines[p].key);
        CHECK(back.pipelines[p].name == set.pipelines[p].name);
        CHECK(back.pipelines[p].programs.begin == set.pipelines[p].programs.begin);
        CHECK(back.pipelines[p].programs.rows == set.pipelines[p].programs.rows);
        CHECK(back.pipelines[p].ms == set.pipelines[p].ms);
    }
    CHECK(std::isinf(back.pipelines[0].ms[1]));
}

TEST_CASE("pretraining: an existing file is never written over") {
    TempPath file("existing.jsonl");
    write_lines(file.path, {"someone's data"});
    CHECK_THROWS_WITH_AS(write_pretraining_set(file.path, small_set()), doctest::Contains("already exists"), UserError);
    CHECK(lines_of(file.path) == std::vector<std::string>{"someone's data"});
}

TEST_CASE("pretraining: a bad file is refused with its name and line") {
    TempPath file("bad.jsonl");
    write_pretraining_set(file.path, small_set());
    const std::vector<std::string> good = lines_of(file.path);
    REQUIRE(good.size() == 4);  // header and three programs

    SUBCASE("missing") {
        CHECK_THROWS_WITH_AS(read_pretraining_set(file.path + ".nope"), doctest::Contains("cannot read"), UserError);
    }
    SUBCASE("a tuning log instead of a set") {
        write_lines(file.path, {R"({"version":1,"pipeline":"0e07","steps":[]})"});
        CHECK_THROWS_WITH_AS(read_pretraining_set(file.path), doctest::Contains(":1: not a pretraining set"), UserError);
    }
    SUBCASE("another feature layout") {
        std::vector<std::string> lines = good;
        nlohmann::json header = nlohmann::json::parse(lines[0]);
        header["features"].erase(header["features"].size() - 1);
        lines[0] = header.dump();
        write_lines(file.path, lines);
        CHECK_THROWS_WITH_AS(read_pretraining_set(file.path), doctest::Contains("feature columns differ"), UserError);
    }
    SUBCASE("a row of the wrong length") {
        std::vector<std::string> lines = good;
        nlohmann::json program = nlohmann::json::parse(lines[2]);
        program["rows"][0].erase(0);
        lines[2] = program.dump();
        write_lines(file.path, lines);
        CHECK_THROWS_WITH_AS(read_pretraining_set(file.path), doctest::Contains((file.path + ":3: every row must hold").c_str()),
                             UserError);
    }
    SUBCASE("a line cut short") {
        std::vector<std::string> lines = good;
        lines[3] = lines[3].substr(0, lines[3].size() / 2);
        write_lines(file.path, lines);
        CHECK_THROWS_WITH_AS(read_pretraining_set(file.path), doctest::Contains(":4: not JSON"), UserError);
    }
    SUBCASE("a program without a time") {
        std::vector<std::string> lines = good;
        nlohmann::json program = nlohmann::json::parse(lines[1]);
        program.erase("ms");
        lines[1] = program.dump();
        write_lines(file.path, lines);
        CHECK_THROWS_WITH_AS(read_pretraining_set(file.path), doctest::Contains(":2: malformed"), UserError);
    }
}

TEST_CASE("pretraining: a model pretrained on another matmul ranks this one's programs before measuring any") {
    // The set: 200 programs of a 64³ matmul on the fake machine, through a file.
    MatmulPrograms source(21, 64);
    PretrainingSet set;
    set.target = ansor_test::fake_machine_target().to_string();
    set.pipelines.push_back(featurised(source.dag, source.train, "matmul 64"));
    TempPath file("transfer.jsonl");
    write_pretraining_set(file.path, set);
    const PretrainingSet loaded = read_pretraining_set(file.path);

    // The pipeline being tuned: a 48³ matmul, a different pipeline key.
    MatmulPrograms target(22, 48);
    const std::string own_key = make_pipeline_key(target.dag).hash;
    REQUIRE(own_key != loaded.pipelines[0].key);
    XGBoostCostModel model(target.dag);
    CHECK_FALSE(model.can_rank());

    CHECK_THROWS_WITH_AS(model.pretrain(loaded, {own_key}, "x86-64-linux-sse41", file.path),
                         doctest::Contains(("measured on target " + set.target).c_str()), UserError);
    CHECK_THROWS_WITH_AS(model.pretrain(loaded, {loaded.pipelines[0].key}, set.target, file.path),
                         doctest::Contains("no programs of other pipelines"), UserError);
    CHECK_FALSE(model.can_rank());

    PretrainingSummary summary = model.pretrain(loaded, {own_key}, set.target, file.path);
    CHECK(summary.programs == 200);
    CHECK(summary.pipelines == 1);
    REQUIRE(model.can_rank());
    const double accuracy =
        ansor_test::pairwise_accuracy(ansor_test::fake_throughputs(target.test), model.predict(target.test));
    MESSAGE("pairwise accuracy on the unseen pipeline " << accuracy);
    CHECK(accuracy > 0.8);
}

TEST_CASE("pretraining: through the CostModel interface, the XGBoost model learns and the random model refuses") {
    MatmulPrograms source(23, 32), target(24, 48);
    PretrainingSet set;
    set.target = ansor_test::fake_machine_target().to_string();
    set.pipelines.push_back(featurised(source.dag, source.train, "matmul 32"));
    const std::string own_key = make_pipeline_key(target.dag).hash;

    std::unique_ptr<CostModel> random = make_cost_model(CostModelKind::Random, target.dag, 0, ModelObjective::Pairwise);
    CHECK_THROWS_WITH_AS(random->pretrain(set, {own_key}, set.target, "set.jsonl"),
                         doctest::Contains("the random cost model cannot be pretrained on set.jsonl"), UserError);

    std::unique_ptr<CostModel> xgboost = make_cost_model(CostModelKind::XGBoost, target.dag, 0, ModelObjective::Pairwise);
    CHECK_FALSE(xgboost->can_rank());
    PretrainingSummary summary = xgboost->pretrain(set, {own_key}, set.target, "set.jsonl");
    CHECK(summary.programs == source.train.size());
    CHECK(summary.pipelines == 1);
    CHECK(xgboost->can_rank());
}
