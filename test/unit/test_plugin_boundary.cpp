// What reaches the user at the plugin's boundary: every exception type as a
// Halide user error naming what went wrong; a tuning run in which no
// candidate ran correctly as a build error listing their errors, unless the
// all-root fallback is asked for; HL_ANSOR_TRIALS=0 without a log or a
// model saying what it applied.
#include "search/plugin_boundary.h"
#include "search/tuning_session.h"
#include "state/loop_nest.h"
#include "test_pipelines.h"
#include "util/errors.h"
#include "util/target.h"

#include <Halide.h>
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace ansor;

namespace {

const Halide::Target cpu(ansor::project_cpu_target());

// The message of the Halide error that `body` turns into.
std::string halide_error_of(const std::function<void()> &body) {
    REQUIRE(Halide::exceptions_enabled());
    try {
        with_halide_user_errors(body);
    } catch (const Halide::CompileError &e) {
        return e.what();
    }
    FAIL("no Halide::CompileError");
    return "";
}

struct NotAnException {};

// Every candidate fails, each with its own error.
class FailingMeasurer : public Measurer {
public:
    std::vector<MeasureResult> measure(const std::vector<State> &states) override {
        std::vector<MeasureResult> out;
        for (size_t i = 0; i < states.size(); i++) {
            MeasureResult r;
            r.error = "crashed with signal 11 (candidate " + std::to_string(count_++) + ")";
            out.push_back(r);
        }
        return out;
    }

private:
    int count_ = 0;
};

SessionParts failing_machine() {
    SessionParts parts;
    parts.make_measurer = [](const PipelineDAG &, const MeasureOptions &) { return std::make_unique<FailingMeasurer>(); };
    return parts;
}

Options options(std::map<std::string, std::string> extra) {
    std::map<std::string, std::string> vars = {{"HL_ANSOR_TRIALS", "8"},         {"HL_ANSOR_PROGRESS", "0"},
                                               {"HL_ANSOR_MEASURES_PER_ROUND", "4"}, {"HL_ANSOR_POPULATION", "32"},
                                               {"HL_ANSOR_GENERATIONS", "1"},       {"HL_ANSOR_MODEL", "none"}};
    for (auto &kv : extra) vars[kv.first] = kv.second;
    return Options::from_map(vars);
}

// What `body` writes on stderr.
std::string stderr_of(const std::function<void()> &body) {
    const std::string path = "/tmp/ansor_stderr_" + std::to_string(getpid()) + ".txt";
    std::fflush(stderr);
    const int saved = dup(2);
    REQUIRE(std::freopen(path.c_str(), "w", stderr));
    body();
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    std::remove(path.c_str());
    return text.str();
}

}  // namespace

TEST_CASE("plugin boundary: every exception type becomes a Halide user error naming what went wrong") {
    CHECK(halide_error_of([] { throw UserError("HL_ANSOR_TRIALS='x' is not an integer"); }).find(
              "Ansor autoscheduler: HL_ANSOR_TRIALS='x' is not an integer") != std::string::npos);
    const std::string runtime = halide_error_of([] { throw std::runtime_error("XGBoost XGBoosterUpdateOneIter failed"); });
    CHECK(runtime.find("Ansor autoscheduler: internal error (std::runtime_error): XGBoost XGBoosterUpdateOneIter failed") !=
          std::string::npos);
    const std::string invalid = halide_error_of([] { throw InvalidState("Func 'f' has no loop 'x_o'"); });
    CHECK(invalid.find("invalid schedule state (ansor::InvalidState): Func 'f' has no loop 'x_o'") != std::string::npos);
    const std::string json = halide_error_of([] { nlohmann::json j = nlohmann::json::parse("{not json"); });
    CHECK(json.find("JSON error (nlohmann") != std::string::npos);
    CHECK(json.find("parse error") != std::string::npos);
    const std::string memory = halide_error_of([] { throw std::bad_alloc(); });
    CHECK(memory.find("out of memory while scheduling (std::bad_alloc)") != std::string::npos);
    const std::string odd = halide_error_of([] { throw NotAnException(); });
    CHECK(odd.find("an exception of type") != std::string::npos);
    CHECK(odd.find("NotAnException") != std::string::npos);
    const std::string integer = halide_error_of([] { throw 42; });
    CHECK(integer.find("an exception of type int") != std::string::npos);
    // Nothing thrown: nothing reported.
    bool ran = false;
    CHECK_NOTHROW(with_halide_user_errors([&] { ran = true; }));
    CHECK(ran);
}

TEST_CASE("tuning session: when no candidate runs correctly the build fails with their first errors") {
    auto p = ansor_test::make_matmul(32);
    PipelineDAG dag(p.functions(), 2);
    TuningSession session(dag, cpu, session_settings(options({}), dag, cpu), failing_machine());
    CHECK(session.tune() == 8);
    try {
        session.choose();
        FAIL("choose() applied a schedule although no candidate ran");
    } catch (const UserError &e) {
        const std::string m = e.what();
        CHECK(m.find("none of the 8 measured candidates ran correctly") != std::string::npos);
        CHECK(m.find("1. crashed with signal 11 (candidate 0)") != std::string::npos);
        CHECK(m.find("3. crashed with signal 11 (candidate 2)") != std::string::npos);
        CHECK(m.find("candidate 3)") == std::string::npos);  // the first few only
        CHECK(m.find("HL_ANSOR_ALLOW_ROOT_FALLBACK=1") != std::string::npos);
    }
}

TEST_CASE("tuning session: HL_ANSOR_ALLOW_ROOT_FALLBACK applies every Func at root with a warning") {
    auto p = ansor_test::make_matmul(32);
    PipelineDAG dag(p.functions(), 2);
    TuningSession session(dag, cpu, session_settings(options({{"HL_ANSOR_ALLOW_ROOT_FALLBACK", "1"}}), dag, cpu),
                          failing_machine());
    session.tune();
    std::optional<SessionChoice> choice;
    const std::string said = stderr_of([&] { choice = session.choose(); });
    REQUIRE(choice);
    CHECK_FALSE(choice->how.measured);
    CHECK(choice->how.failures == 8);
    CHECK(said.find("none of the 8 measured candidates ran correctly") != std::string::npos);
    CHECK(said.find("falling back to computing every Func at root") != std::string::npos);
    for (const auto &f : choice->state.replay().funcs()) CHECK(f.location.kind == LocationKind::Root);
}

TEST_CASE("tuning session: HL_ANSOR_TRIALS=0 without a log or a model says what it applied") {
    auto p = ansor_test::make_matmul(32);
    PipelineDAG dag(p.functions(), 2);
    TuningSession session(dag, cpu, session_settings(options({{"HL_ANSOR_TRIALS", "0"}}), dag, cpu), failing_machine());
    std::optional<SessionChoice> choice;
    const std::string said = stderr_of([&] { choice = session.choose(); });
    REQUIRE(choice);
    CHECK_FALSE(choice->how.measured);
    CHECK(said.find("HL_ANSOR_TRIALS=0 with no tuning log") != std::string::npos);
    CHECK(said.find("applying one random program (seed 0), unmeasured") != std::string::npos);
}
