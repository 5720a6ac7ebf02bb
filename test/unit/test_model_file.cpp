// The cost model that ships with the plugin: a trained model saved to a file
// and read back, refused when its feature set is not this build's; a model
// that starts from it ranks before any measurement and fine-tunes on the
// pipeline's own; HL_ANSOR_MODEL chooses it; and with no budget the session
// applies the program it ranks best (zero-shot).
#include "fake_machine.h"
#include "model/make_cost_model.h"
#include "model/model_file.h"
#include "model/xgboost_cost_model.h"
#include "search/tuning_session.h"
#include "util/errors.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <zlib.h>

using namespace ansor;
using namespace ansor_test;

namespace {

std::string temp_path(const char *tag) {
    return "/tmp/ansor_model_" + std::string(tag) + "_" + std::to_string(getpid()) + ".gz";
}

// An XGBoost model trained on the fake machine's matmul programs, saved.
struct SavedModel {
    MatmulPrograms programs{21};
    std::string path = temp_path("saved");
    std::unique_ptr<CostModel> model;

    SavedModel() {
        model = make_cost_model(CostModelKind::XGBoost, programs.dag, 0, ModelObjective::Pairwise);
        model->update(programs.train, fake_results(programs.train));
        ModelFileInfo info;
        info.objective = "pairwise";
        info.target = fake_machine_target().to_string();
        info.pipelines = 1;
        info.programs = programs.train.size();
        info.sources = {"fake machine"};
        save_model_file(path, dynamic_cast<XGBoostCostModel &>(*model).trained_model().trees(), info);
    }
    ~SavedModel() { std::remove(path.c_str()); }
};

// Rewrites `from` with its header's feature_set replaced by `feature_set`.
void write_with_feature_set(const std::string &from, const std::string &to, const std::string &feature_set) {
    gzFile in = gzopen(from.c_str(), "rb");
    REQUIRE(in);
    std::string bytes;
    char buf[4096];
    for (int n; (n = gzread(in, buf, sizeof(buf))) > 0;) bytes.append(buf, (size_t)n);
    gzclose(in);
    const std::string current = feature_set_version();
    const size_t at = bytes.find(current);
    REQUIRE(at != std::string::npos);
    bytes.replace(at, current.size(), feature_set);
    std::ofstream(to, std::ios::binary) << bytes;  // plain: a model file need not be compressed
}

}  // namespace

TEST_CASE("model file: a saved model reads back with the same predictions and its description") {
    SavedModel saved;
    LoadedModel loaded = load_model_file(saved.path);
    CHECK(loaded.info.feature_set == feature_set_version());
    CHECK(loaded.info.programs == 200);
    CHECK(loaded.info.sources == std::vector<std::string>{"fake machine"});
    auto fresh = make_cost_model(CostModelKind::XGBoost, saved.programs.dag, 0, ModelObjective::Pairwise, loaded.trees);
    CHECK(fresh->predict(saved.programs.test) == saved.model->predict(saved.programs.test));
}

TEST_CASE("model file: a model of another feature set, or no model file at all, is refused naming it") {
    SavedModel saved;
    const std::string other = temp_path("other");
    write_with_feature_set(saved.path, other, "0-99-0000000000000000");
    CHECK_THROWS_WITH_AS(load_model_file(other),
                         doctest::Contains(("feature set 0-99-0000000000000000, but this build computes feature set " +
                                            feature_set_version()).c_str()),
                         UserError);
    std::ofstream(other) << "not a model\n";
    CHECK_THROWS_WITH_AS(load_model_file(other), doctest::Contains((other + " is not an Ansor cost model file").c_str()),
                         UserError);
    std::remove(other.c_str());
    CHECK_THROWS_WITH_AS(load_model_file(other), doctest::Contains(("cannot read the cost model file " + other).c_str()),
                         UserError);
}

TEST_CASE("model file: a header field of the wrong type is refused naming the file and the field") {
    SavedModel saved;
    const std::string other = temp_path("typed");
    const std::string field = "\"programs\":200";
    gzFile in = gzopen(saved.path.c_str(), "rb");
    REQUIRE(in);
    std::string bytes;
    char buf[4096];
    for (int n; (n = gzread(in, buf, sizeof(buf))) > 0;) bytes.append(buf, (size_t)n);
    gzclose(in);
    const size_t at = bytes.find(field);
    REQUIRE(at != std::string::npos);
    bytes.replace(at, field.size(), "\"programs\":\"many\"");
    std::ofstream(other, std::ios::binary) << bytes;
    CHECK_THROWS_WITH_AS(load_model_file(other),
                         doctest::Contains((other + " has a malformed header: \"programs\" is \"many\"").c_str()),
                         UserError);
    std::remove(other.c_str());
}

TEST_CASE("model file: a save replaces the file whole and leaves nothing beside it") {
    SavedModel saved;
    const std::string dir = "/tmp/ansor_model_save_" + std::to_string(getpid());
    std::filesystem::create_directories(dir);
    const std::string path = dir + "/model.gz";
    std::ofstream(path) << "the previous model\n";
    save_model_file(path, *load_model_file(saved.path).trees, ModelFileInfo{});
    CHECK(load_model_file(path).trees->trained());
    CHECK(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator{}) == 1);
    // A save that cannot write is an error naming the file.
    const std::string unwritable = dir + "/no/such/dir/model.gz";
    CHECK_THROWS_WITH_AS(save_model_file(unwritable, *load_model_file(saved.path).trees, ModelFileInfo{}),
                         doctest::Contains(unwritable.c_str()), UserError);
    std::filesystem::remove_all(dir);
}

TEST_CASE("model file: a model that starts from it ranks at once and fine-tunes on the pipeline's programs") {
    SavedModel saved;
    LoadedModel loaded = load_model_file(saved.path);
    MatmulPrograms other(22, 48);  // another matmul: the prior has never seen its programs
    auto cold = make_cost_model(CostModelKind::XGBoost, other.dag, 0, ModelObjective::Pairwise);
    auto warm = make_cost_model(CostModelKind::XGBoost, other.dag, 0, ModelObjective::Pairwise, loaded.trees);
    CHECK_FALSE(cold->can_rank());
    REQUIRE(warm->can_rank());
    const double before = pairwise_accuracy(fake_throughputs(other.test), warm->predict(other.test));
    MESSAGE("held-out pairwise accuracy of the prior alone " << before);
    CHECK(before > 0.75);
    // A few of the pipeline's own measurements: new trees fit what the prior
    // gets wrong, the prior's scores stay underneath.
    std::vector<State> few(other.train.begin(), other.train.begin() + 16);
    warm->update(few, fake_results(few));
    const std::vector<double> tuned = warm->predict(other.test);
    CHECK(tuned != loaded.trees->predict(ProgramBatch(features::kCount)).programs);
    const double after = pairwise_accuracy(fake_throughputs(other.test), tuned);
    cold->update(few, fake_results(few));
    const double cold_after = pairwise_accuracy(fake_throughputs(other.test), cold->predict(other.test));
    MESSAGE("after 16 measurements: fine-tuned " << after << ", cold " << cold_after);
    CHECK(after >= cold_after);
}

TEST_CASE("model file: HL_ANSOR_MODEL names the file, none turns it off, and a missing file is an error naming it") {
    MatmulPrograms p(23);
    const Halide::Target target = fake_machine_target();
    CHECK(session_settings(Options::from_map({{"HL_ANSOR_MODEL", "none"}}), p.dag, target).model_file.empty());
    CHECK(session_settings(Options::from_map({{"HL_ANSOR_MODEL", "/x/m.gz"}}), p.dag, target).model_file == "/x/m.gz");
    CHECK_THROWS_AS(Options::from_map({{"HL_ANSOR_MODEL", ""}}), UserError);
    Options o = Options::from_map({{"HL_ANSOR_MODEL", "/no/such/model.gz"}, {"HL_ANSOR_TRIALS", "0"},
                                   {"HL_ANSOR_PROGRESS", "0"}});
    CHECK_THROWS_WITH_AS(TuningSession(p.dag, target, o).choose(), doctest::Contains("/no/such/model.gz"), UserError);
}

TEST_CASE("zero-shot: with no budget and no log, the session applies the program the model ranks best") {
    SavedModel saved;
    const Halide::Target target = fake_machine_target();
    Options o = Options::from_map({{"HL_ANSOR_MODEL", saved.path}, {"HL_ANSOR_TRIALS", "0"}, {"HL_ANSOR_PROGRESS", "0"},
                                   {"HL_ANSOR_POPULATION", "128"}, {"HL_ANSOR_GENERATIONS", "2"}});
    TuningSession session(saved.programs.dag, target, o);
    SessionChoice c = session.choose();
    CHECK(c.how.zero_shot);
    CHECK_FALSE(c.how.measured);
    CHECK(c.source.rfind("// Ansor: zero-shot", 0) == 0);
    // The model's top program beats the fake machine's typical random program.
    std::vector<double> times;
    for (const State &s : saved.programs.test) times.push_back(fake_ms(s));
    std::sort(times.begin(), times.end());
    CHECK(fake_ms(c.state) <= times[times.size() / 4]);
    // Deterministic, and a model that cannot rank falls back to one random program.
    CHECK(TuningSession(saved.programs.dag, target, o).choose().state.key() == c.state.key());
    Options none = Options::from_map({{"HL_ANSOR_MODEL", "none"}, {"HL_ANSOR_TRIALS", "0"}, {"HL_ANSOR_PROGRESS", "0"}});
    CHECK_FALSE(TuningSession(saved.programs.dag, target, none).choose().how.zero_shot);
}

TEST_CASE("zero-shot: a judge model chooses among the cost model's finalists; HL_ANSOR_JUDGE_MODEL names it") {
    SavedModel saved;
    const Halide::Target target = fake_machine_target();
    const PipelineDAG &dag = saved.programs.dag;
    CHECK(session_settings(Options::from_map({{"HL_ANSOR_JUDGE_MODEL", "none"}}), dag, target).judge_model_file.empty());
    CHECK(session_settings(Options::from_map({{"HL_ANSOR_JUDGE_MODEL", "/x/j.gz"}}), dag, target).judge_model_file ==
          "/x/j.gz");
    CHECK_THROWS_AS(Options::from_map({{"HL_ANSOR_JUDGE_MODEL", ""}}), UserError);
    auto options = [&](const std::string &judge) {
        return Options::from_map({{"HL_ANSOR_MODEL", saved.path}, {"HL_ANSOR_JUDGE_MODEL", judge},
                                  {"HL_ANSOR_TRIALS", "0"}, {"HL_ANSOR_PROGRESS", "0"}, {"HL_ANSOR_POPULATION", "128"},
                                  {"HL_ANSOR_GENERATIONS", "2"}});
    };
    // Without a judge, the cost model's best program.
    const SessionChoice plain = TuningSession(dag, target, options("none")).choose();
    REQUIRE(plain.how.zero_shot);
    CHECK(plain.how.judged_by.empty());
    CHECK(plain.source.find("judge") == std::string::npos);

    // The cost model as its own judge agrees with itself: its first finalist.
    const SessionChoice self = TuningSession(dag, target, options(saved.path)).choose();
    REQUIRE(self.how.zero_shot);
    CHECK(self.how.judged_by == saved.path);
    CHECK(self.how.finalists > 1);
    CHECK(self.how.finalist == 0);
    CHECK(self.state.key() == plain.state.key());
    CHECK(self.source.find("the one the judge model " + saved.path + " scores best (the cost model's 1st)") !=
          std::string::npos);

    // A judge trained on inverted times prefers slow programs: it overrules
    // the cost model with the finalist it scores above the cost model's best
    // (the finalists do not depend on the judge: the same evolution).
    std::vector<MeasureResult> inverted = fake_results(saved.programs.train);
    for (MeasureResult &r : inverted) {
        if (r.ok) r.min_ms = r.median_ms = 1.0 / r.min_ms;
    }
    auto contrary = make_cost_model(CostModelKind::XGBoost, dag, 0, ModelObjective::Pairwise);
    contrary->update(saved.programs.train, inverted);
    const std::string contrary_path = temp_path("contrary");
    ModelFileInfo info;
    info.objective = "pairwise";
    info.target = target.to_string();
    save_model_file(contrary_path, dynamic_cast<XGBoostCostModel &>(*contrary).trained_model().trees(), info);
    const SessionChoice overruled = TuningSession(dag, target, options(contrary_path)).choose();
    CHECK(overruled.how.finalist > 0);
    const std::vector<double> contrary_scores = contrary->predict({overruled.state, plain.state});
    CHECK(contrary_scores[0] > contrary_scores[1]);
    std::remove(contrary_path.c_str());

    // A judge file that cannot be read is an error naming it.
    CHECK_THROWS_WITH_AS(TuningSession(dag, target, options("/no/such/judge.gz")).choose(),
                         doctest::Contains("/no/such/judge.gz"), UserError);
}

TEST_CASE("zero-shot: a finalist that does not compile, or not in time, is skipped, and the schedule says so") {
    SavedModel saved;
    const Halide::Target target = fake_machine_target();
    const PipelineDAG &dag = saved.programs.dag;
    const Options o = Options::from_map({{"HL_ANSOR_MODEL", saved.path}, {"HL_ANSOR_JUDGE_MODEL", "none"},
                                         {"HL_ANSOR_TRIALS", "0"}, {"HL_ANSOR_PROGRESS", "0"},
                                         {"HL_ANSOR_POPULATION", "128"}, {"HL_ANSOR_GENERATIONS", "2"}});
    // The real check: the cost model's best compiles, nothing is skipped.
    const SessionChoice plain = TuningSession(dag, target, o).choose();
    REQUIRE(plain.how.zero_shot);
    CHECK(plain.how.skipped.empty());
    CHECK(plain.how.finalist == 0);
    REQUIRE(plain.how.finalists > 2);

    std::vector<std::string> checked;
    std::vector<double> limits;
    SessionParts parts;
    parts.check_compile = [&](const State &s, double timeout_s) {
        checked.push_back(s.key());
        limits.push_back(timeout_s);
        CompileCheck c;
        if (checked.size() == 1) c.error = "Can only unroll for loops over a constant extent.\nmore";
        else if (checked.size() == 2) c.error = "did not compile in " + std::to_string((int)timeout_s) + " s";
        else c.ok = true;
        return c;
    };
    const SessionChoice third = TuningSession(dag, target, session_settings(o, dag, target), parts).choose();
    REQUIRE(checked.size() == 3);
    CHECK(checked[0] == plain.state.key());  // tried in the cost model's order
    CHECK(limits[0] <= 20);
    CHECK(third.how.finalist == 2);
    CHECK(third.state.key() == checked[2]);
    REQUIRE(third.how.skipped.size() == 2);
    CHECK(third.source.find("of those that compiled") != std::string::npos);
    CHECK(third.source.find("// skipped finalist 1: Can only unroll for loops over a constant extent. more") !=
          std::string::npos);
    CHECK(third.source.find("// skipped finalist 2: did not compile in") != std::string::npos);

    // Every one stopped at the limit (a busy machine): the judge's best of
    // them gets three times as long once more, and is applied if it compiles.
    checked.clear();
    limits.clear();
    parts.check_compile = [&](const State &s, double timeout_s) {
        checked.push_back(s.key());
        limits.push_back(timeout_s);
        CompileCheck c;
        c.ok = timeout_s > 20;
        c.timed_out = !c.ok;
        c.error = c.ok ? "" : "did not compile in 20 s";
        return c;
    };
    const SessionChoice slow = TuningSession(dag, target, session_settings(o, dag, target), parts).choose();
    REQUIRE((int)checked.size() == slow.how.finalists + 1);
    CHECK(limits.back() == doctest::Approx(3 * limits.front()));
    CHECK(checked.back() == checked.front());
    CHECK(slow.how.finalist == 0);
    CHECK(slow.state.key() == plain.state.key());
    CHECK((int)slow.how.skipped.size() == slow.how.finalists - 1);
    CHECK(slow.source.find("// skipped finalist 1:") == std::string::npos);

    // None compiles: every Func at root, said in the schedule; the build goes on.
    parts.check_compile = [](const State &, double) {
        CompileCheck c;
        c.error = "internal compiler error";
        return c;
    };
    const SessionChoice root = TuningSession(dag, target, session_settings(o, dag, target), parts).choose();
    CHECK(root.how.finalist == -1);
    CHECK((int)root.how.skipped.size() == root.how.finalists);
    CHECK(root.source.find("every Func is computed at root") != std::string::npos);
}

TEST_CASE("tuning: the first round measures the program a zero-shot build applies") {
    SavedModel saved;
    const Halide::Target target = fake_machine_target();
    const PipelineDAG &dag = saved.programs.dag;
    auto options = [&](const std::string &trials) {
        return Options::from_map({{"HL_ANSOR_MODEL", saved.path}, {"HL_ANSOR_JUDGE_MODEL", "none"},
                                  {"HL_ANSOR_TRIALS", trials}, {"HL_ANSOR_PROGRESS", "0"},
                                  {"HL_ANSOR_POPULATION", "128"}, {"HL_ANSOR_GENERATIONS", "2"},
                                  {"HL_ANSOR_MEASURES_PER_ROUND", "4"}});
    };
    const SessionChoice zero_shot = TuningSession(dag, target, options("0")).choose();
    REQUIRE(zero_shot.how.zero_shot);
    struct FakeMachineMeasurer : public Measurer {
        std::vector<MeasureResult> measure(const std::vector<State> &states) override {
            std::vector<MeasureResult> out(states.size());
            for (size_t i = 0; i < states.size(); i++) {
                out[i].ok = true;
                out[i].min_ms = out[i].median_ms = fake_ms(states[i]);
            }
            return out;
        }
    };
    SessionParts parts;
    parts.make_measurer = [](const PipelineDAG &, const MeasureOptions &) -> std::unique_ptr<Measurer> {
        return std::make_unique<FakeMachineMeasurer>();
    };
    TuningSession tuned(dag, target, session_settings(options("4"), dag, target), parts);
    tuned.tune();
    bool measured = false;
    for (const TrialRecord &t : tuned.outcome().trials) measured = measured || t.state.key() == zero_shot.state.key();
    CHECK(measured);
    CHECK(fake_ms(tuned.choose().state) <= fake_ms(zero_shot.state));
}
