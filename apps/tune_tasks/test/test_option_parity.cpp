// Every HL_ANSOR_* option reaches the same component settings through the
// plugin's path (session_settings of the options) and through
// ansor_tune_tasks' path (task_session_settings of its setup), or is one the
// tool refuses and takes as a flag instead. An option wired into one tool
// and forgotten in the other fails here.
#include "network/task_run.h"

#include "search/session_settings.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>

using namespace ansor;

namespace {

const Halide::Target target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");

TaskSpec conv_task() {
    TaskSpec t;
    t.name = "conv";
    t.generator = "conv2d_bias_act";
    t.params = {{"N", "1"}, {"H", "8"}, {"W", "8"}, {"CI", "4"}, {"CO", "8"},
                {"k", "3"}, {"s", "1"}, {"p", "1"}, {"act", "1"}, {"residual", "0"}};
    t.networks = {"n"};
    return t;
}

// A valid value other than the default, for every option.
const std::map<std::string, std::string> &other_values() {
    static const std::map<std::string, std::string> v = {
        {"HL_ANSOR_TRIALS", "7"},
        {"HL_ANSOR_SEED", "11"},
        {"HL_ANSOR_TIMEOUT", "12.5"},
        // The default is this machine's cores.
        {"HL_ANSOR_BUILDERS", ansor::Options::default_builders() == 1 ? "2" : "1"},
        // The default is half this machine's RAM.
        {"HL_ANSOR_MEMORY_LIMIT", ansor::default_memory_limit_bytes() == (1234ull << 20) ? "4321M" : "1234M"},
        {"HL_ANSOR_ALLOW_ROOT_FALLBACK", "1"},
        {"HL_ANSOR_REPEATS", "3"},
        {"HL_ANSOR_MEASURE_SECONDS", "0.7"},
        {"HL_ANSOR_TOLERANCE", "0.01"},
        {"HL_ANSOR_MAX_INNERMOST_FACTOR", "16"},
        {"HL_ANSOR_MAX_REDUCTION_FACTOR", "256"},
        {"HL_ANSOR_MAX_CONSUMER_TILE", "128"},
        {"HL_ANSOR_VECTOR_TILE_BIAS", "0.3"},
        {"HL_ANSOR_AUTO_UNROLL_MAX_STEP", "64"},
        {"HL_ANSOR_VERBOSE", "1"},
        {"HL_ANSOR_PROGRESS", "0"},
        {"HL_ANSOR_SEARCH", "model"},
        {"HL_ANSOR_COST_MODEL", "random"},
        {"HL_ANSOR_MODEL_OBJECTIVE", "square"},
        {"HL_ANSOR_MEASURES_PER_ROUND", "5"},
        {"HL_ANSOR_EPSILON", "0.25"},
        {"HL_ANSOR_POPULATION", "300"},
        {"HL_ANSOR_GENERATIONS", "2"},
        {"HL_ANSOR_MUTATION_PROB", "0.5"},
        {"HL_ANSOR_CROSSOVER", "0.4"},
        {"HL_ANSOR_STRUCTURE_SHARE", "0.75"},
        {"HL_ANSOR_FIRST_STRUCTURE_SHARE", "0.3"},
        {"HL_ANSOR_SKETCH_COVERAGE", "0.5"},
        {"HL_ANSOR_LOG", "tuning.jsonl"},
        {"HL_ANSOR_PRETRAIN", "set.jsonl"},
        {"HL_ANSOR_MODEL", "model.bin"},
        {"HL_ANSOR_JUDGE_MODEL", "judge.bin"},
        {"HL_ANSOR_RUNNER", "runner_for_test"},
        {"HL_ANSOR_TIMING", "in-tuner"},
    };
    return v;
}

bool replaced_by_flag(const std::string &name) {
    const auto &r = options_replaced_by_flags();
    return std::find(r.begin(), r.end(), name) != r.end();
}

}  // namespace

TEST_CASE("option parity: every option reaches the plugin's and the task tool's components alike") {
    TuningSetup setup;
    setup.target = target;
    setup.parallelism = 2;
    setup.seed = 5;
    setup.log = "tasks.jsonl";
    TaskRun run(conv_task(), setup);
    const ansor::PipelineDAG &dag = run.dag();
    const std::string defaults = ansor::describe(ansor::session_settings(ansor::Options(), dag, target));

    for (const auto &[name, doc] : ansor::Options::documentation()) {
        CAPTURE(name);
        auto value = other_values().find(name);
        REQUIRE_MESSAGE(value != other_values().end(), "give the new option a test value in other_values()");
        const ansor::Options options = ansor::Options::from_map({{name, value->second}});
        const ansor::SessionSettings plugin = ansor::session_settings(options, dag, target);
        // The option changes some component's settings.
        CHECK(ansor::describe(plugin) != defaults);
        if (replaced_by_flag(name)) continue;

        setup.options = options;
        ansor::SessionSettings tool = task_session_settings(setup, dag);
        // What the tool takes from its flags and scheduler, by design.
        CHECK(tool.tuner.seed == setup.seed);
        CHECK(tool.log == setup.log);
        tool.tuner.seed = plugin.tuner.seed;
        tool.log = plugin.log;
        tool.tuner.trials = plugin.tuner.trials;
        tool.progress = plugin.progress;
        CHECK(ansor::describe(tool) == ansor::describe(plugin));
    }
}

TEST_CASE("option parity: a large pipeline's evolution population shrinks in both tools alike") {
    // A 12-Func limit scales the default population; both paths share it.
    ansor::Options options;
    CHECK(ansor::population_for(options, 12) == 2048);
    CHECK(ansor::population_for(options, 48) == 512);
    CHECK(ansor::population_for(options, 1000) == 256);
    options = ansor::Options::from_map({{"HL_ANSOR_POPULATION", "100"}});
    CHECK(ansor::population_for(options, 1000) == 100);  // set by the user: kept
}
