// The tuning session every tool tunes through: the same seed gives the same
// programs, every measurement is appended to the log and a second session
// resumes from it, suggestions are measured first, and the final choice
// says how it was made.
#include "search/tuning_session.h"
#include "test_pipelines.h"
#include "util/errors.h"
#include "util/target.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <set>
#include <unistd.h>

using namespace ansor;

namespace {

const Halide::Target cpu(ansor::project_cpu_target());

// Times drawn from each program's key: deterministic, nothing compiled.
class KeyTimedMeasurer : public Measurer {
public:
    std::vector<MeasureResult> measure(const std::vector<State> &states) override {
        std::vector<MeasureResult> out;
        for (const auto &s : states) {
            MeasureResult r;
            r.ok = true;
            r.min_ms = r.median_ms = 1 + (double)(std::hash<std::string>()(s.key()) % 1000) / 100;
            r.runs = 1;
            out.push_back(r);
        }
        return out;
    }
};

SessionParts fake_machine() {
    SessionParts parts;
    parts.make_measurer = [](const PipelineDAG &, const MeasureOptions &) { return std::make_unique<KeyTimedMeasurer>(); };
    return parts;
}

Options small_search(uint64_t seed) {
    return Options::from_map({{"HL_ANSOR_SEED", std::to_string(seed)},
                              {"HL_ANSOR_TRIALS", "24"},
                              {"HL_ANSOR_PROGRESS", "0"},
                              {"HL_ANSOR_MEASURES_PER_ROUND", "8"},
                              {"HL_ANSOR_POPULATION", "64"},
                              {"HL_ANSOR_GENERATIONS", "2"}});
}

std::vector<std::string> measured_keys(const PipelineDAG &dag, const Options &options) {
    TuningSession session(dag, cpu, session_settings(options, dag, cpu), fake_machine());
    session.tune();
    std::vector<std::string> keys;
    for (const auto &t : session.outcome().trials) keys.push_back(t.state.key());
    return keys;
}

std::string temp_log(const char *tag) {
    std::string path = "/tmp/ansor_session_" + std::string(tag) + "_" + std::to_string(getpid()) + ".jsonl";
    std::remove(path.c_str());
    return path;
}

}  // namespace

TEST_CASE("tuning session: the same seed measures the same programs, another seed others") {
    auto p = ansor_test::make_matmul(64);
    PipelineDAG dag(p.functions(), 2);
    const std::vector<std::string> a = measured_keys(dag, small_search(3));
    CHECK(a.size() == 24);
    CHECK(measured_keys(dag, small_search(3)) == a);
    CHECK(measured_keys(dag, small_search(4)) != a);
}

TEST_CASE("tuning session: measurements are appended to the log and a second session resumes from them") {
    auto p = ansor_test::make_matmul(64);
    PipelineDAG dag(p.functions(), 2);
    const std::string log = temp_log("resume");
    SessionSettings settings = session_settings(small_search(1), dag, cpu);
    settings.log = log;
    {
        TuningSession first(dag, cpu, settings, fake_machine());
        CHECK(first.history().empty());
        CHECK(first.tune(10) == 10);
    }
    TuningSession second(dag, cpu, settings, fake_machine());
    REQUIRE(second.history().size() == 10);
    for (size_t i = 0; i < 10; i++) CHECK(second.history()[i].trial.value_or(-1) == (int64_t)i);
    second.tune(6);
    // The history is never measured again, and counts for the best program.
    std::set<std::string> logged;
    for (const auto &r : second.history()) logged.insert(r.state->key());
    for (const auto &t : second.outcome().trials) CHECK(logged.count(t.state.key()) == 0);
    SessionChoice choice = second.choose();
    CHECK(choice.how.measured);
    CHECK(choice.how.trials == 6);
    CHECK(choice.source.find("best of 6 measured programs and 10 from " + log) != std::string::npos);
    CHECK(TuningLog(log).load(dag, cpu).size() == 16);

    // Without a budget, the log's best record; a log-only session does not resume.
    SessionChoice replay = TuningSession(dag, cpu, settings, fake_machine()).choose();
    CHECK(replay.how.from_log);
    settings.resume_from_log = false;
    TuningSession cold(dag, cpu, settings, fake_machine());
    CHECK(cold.history().empty());
    std::remove(log.c_str());
}

TEST_CASE("tuning session: suggested programs are measured first") {
    auto p = ansor_test::make_matmul(64);
    PipelineDAG dag(p.functions(), 2);
    TuningSession donor(dag, cpu, session_settings(small_search(9), dag, cpu), fake_machine());
    donor.tune(2);
    const State suggested = donor.outcome().trials[1].state;
    TuningSession session(dag, cpu, session_settings(small_search(1), dag, cpu), fake_machine());
    session.suggest({suggested});
    session.tune(4);
    CHECK(session.outcome().trials.at(0).state.key() == suggested.key());
}

TEST_CASE("tuning session: with no budget and no log, one random program, unmeasured and said so") {
    auto p = ansor_test::make_matmul(64);
    PipelineDAG dag(p.functions(), 2);
    TuningSession session(dag, cpu, small_search(0));
    SessionChoice c = session.choose();
    CHECK_FALSE(c.how.measured);
    CHECK(c.source.rfind("// Ansor: unmeasured schedule\n", 0) == 0);
    // The same seed chooses the same program.
    CHECK(TuningSession(dag, cpu, small_search(0)).choose().state.key() == c.state.key());
}

TEST_CASE("tuning session: a target this CPU cannot run is scheduled without measuring, and says why") {
    auto p = ansor_test::make_matmul(64);
    PipelineDAG dag(p.functions(), 2);
    // Xeon Phi's AVX-512 subset, which no CPU this runs on has.
    const Halide::Target phi = cpu.with_feature(Halide::Target::AVX512_KNL);
    TuningSession session(dag, phi, small_search(0));
    CHECK(session.tune(8) == 0);
    SessionChoice c = session.choose();
    CHECK_FALSE(c.how.measured);
    CHECK(c.how.not_measured_because.find("avx512_knl") != std::string::npos);
}

TEST_CASE("tuning session: an ablation keeps only the first sketches") {
    auto p = ansor_test::make_matmul(64);
    PipelineDAG dag(p.functions(), 2);
    SessionSettings settings = session_settings(small_search(0), dag, cpu);
    const size_t all = TuningSession(dag, cpu, settings).sketches().size();
    REQUIRE(all > 1);
    settings.max_sketches = 1;
    CHECK(TuningSession(dag, cpu, settings).sketches().size() == 1);
}
