#include "options/options.h"
#include "search/autoschedule.h"
#include "search/session_settings.h"
#include "test_pipelines.h"
#include "util/errors.h"
#include "util/memory_size.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using ansor::Options;

TEST_CASE("options: defaults when nothing is set") {
    Options o = Options::from_map({{"PATH", "/bin"}});
    CHECK(o.trials == 64);
    CHECK(o.seed == 0);
    CHECK(o.progress);
}

TEST_CASE("options: values are parsed") {
    Options o = Options::from_map({{"HL_ANSOR_TRIALS", "200"}, {"HL_ANSOR_SEED", "7"}, {"HL_ANSOR_TIMEOUT", "2.5"},
                                   {"HL_ANSOR_VERBOSE", "yes"}});
    CHECK(o.trials == 200);
    CHECK(o.seed == 7);
    CHECK(o.timeout_s == doctest::Approx(2.5));
    CHECK(o.verbose);
}

TEST_CASE("options: an unknown HL_ANSOR_ name is an error naming it") {
    try {
        Options::from_map({{"HL_ANSOR_TRIAL", "5"}});
        FAIL("expected an error");
    } catch (const ansor::UserError &e) {
        CHECK(std::string(e.what()).find("HL_ANSOR_TRIAL") != std::string::npos);
        CHECK(std::string(e.what()).find("HL_ANSOR_TRIALS") != std::string::npos);
    }
}

TEST_CASE("options: malformed values are errors naming the option") {
    CHECK_THROWS_WITH_AS(Options::from_map({{"HL_ANSOR_TRIALS", "ten"}}), doctest::Contains("HL_ANSOR_TRIALS='ten'"),
                         ansor::UserError);
    CHECK_THROWS_AS(Options::from_map({{"HL_ANSOR_TRIALS", "-1"}}), ansor::UserError);
    CHECK_THROWS_AS(Options::from_map({{"HL_ANSOR_TIMEOUT", "0"}}), ansor::UserError);
    CHECK_THROWS_AS(Options::from_map({{"HL_ANSOR_VERBOSE", "maybe"}}), ansor::UserError);
    CHECK_THROWS_WITH_AS(Options::from_map({{"HL_ANSOR_SEARCH", "beam"}}),
                         doctest::Contains("HL_ANSOR_SEARCH='beam' is not one of: random, model, evolution"),
                         ansor::UserError);
    CHECK_THROWS_AS(Options::from_map({{"HL_ANSOR_LOG", ""}}), ansor::UserError);
    CHECK_THROWS_WITH_AS(Options::from_map({{"HL_ANSOR_PRETRAIN", ""}}), doctest::Contains("pretraining set"),
                         ansor::UserError);
    CHECK(Options::from_map({{"HL_ANSOR_PRETRAIN", "set.jsonl"}}).pretrain == "set.jsonl");
    CHECK(Options::from_map({{"HL_ANSOR_SEARCH", "model"}, {"HL_ANSOR_CROSSOVER", "0"}}).search == ansor::SearchPolicy::Model);
    CHECK_THROWS_WITH_AS(Options::from_map({{"HL_ANSOR_STRUCTURE_SHARE", "1.5"}}),
                         doctest::Contains("HL_ANSOR_STRUCTURE_SHARE"), ansor::UserError);
    CHECK(Options::from_map({{"HL_ANSOR_STRUCTURE_SHARE", "1"}}).structure_share == 1.0);
    CHECK(Options::from_map({{"HL_ANSOR_FIRST_STRUCTURE_SHARE", "0.5"}}).first_structure_share == 0.5);
    CHECK(Options::from_map({{"HL_ANSOR_SKETCH_COVERAGE", "0"}}).sketch_coverage_share == 0);
    CHECK_THROWS_WITH_AS(Options::from_map({{"HL_ANSOR_SKETCH_COVERAGE", "2"}}),
                         doctest::Contains("HL_ANSOR_SKETCH_COVERAGE"), ansor::UserError);
    CHECK_THROWS_WITH_AS(Options::from_map({{"HL_ANSOR_FIRST_STRUCTURE_SHARE", "-1"}}),
                         doctest::Contains("HL_ANSOR_FIRST_STRUCTURE_SHARE"), ansor::UserError);
    CHECK(Options::from_map({{"HL_ANSOR_MODEL_OBJECTIVE", "pairwise"}}).model_objective == ansor::ModelObjective::Pairwise);
    CHECK(Options::from_map({{"HL_ANSOR_MODEL_OBJECTIVE", "lambdarank"}}).model_objective == ansor::ModelObjective::LambdaRank);
    CHECK_THROWS_WITH_AS(Options::from_map({{"HL_ANSOR_MODEL_OBJECTIVE", "rank"}}),
                         doctest::Contains("HL_ANSOR_MODEL_OBJECTIVE='rank' is not one of: square, pairwise"),
                         ansor::UserError);
    // Every option is documented.
    CHECK(Options::documentation().size() == 34);
    CHECK_THROWS_WITH_AS(Options::from_map({{"HL_ANSOR_RUNNER", ""}}), doctest::Contains("ansor_runner"),
                         ansor::UserError);
}

TEST_CASE("options: HL_ANSOR_BUILDERS defaults to the machine's cores; other values are checked") {
    const int cores = std::max(1, (int)std::thread::hardware_concurrency());
    CHECK(Options::default_builders() == cores);
    CHECK(Options::from_map({}).builders == cores);
    CHECK(Options::from_map({{"HL_ANSOR_BUILDERS", "1"}}).builders == 1);
    CHECK(Options::from_map({{"HL_ANSOR_BUILDERS", "256"}}).builders == 256);
    for (const char *bad : {"0", "257", "-1", "two", ""}) {
        CAPTURE(bad);
        CHECK_THROWS_WITH_AS(Options::from_map({{"HL_ANSOR_BUILDERS", bad}}), doctest::Contains("HL_ANSOR_BUILDERS"),
                             ansor::UserError);
    }
}

TEST_CASE("options: HL_ANSOR_MEMORY_LIMIT takes bytes or binary multiples and defaults to half the RAM") {
    CHECK(Options::from_map({}).memory_limit == ansor::physical_memory_bytes() / 2);
    CHECK(Options::from_map({{"HL_ANSOR_MEMORY_LIMIT", "0"}}).memory_limit == 0);
    CHECK(Options::from_map({{"HL_ANSOR_MEMORY_LIMIT", "1048576"}}).memory_limit == 1048576);
    CHECK(Options::from_map({{"HL_ANSOR_MEMORY_LIMIT", "512M"}}).memory_limit == 512ull << 20);
    CHECK(Options::from_map({{"HL_ANSOR_MEMORY_LIMIT", "8g"}}).memory_limit == 8ull << 30);
    CHECK(Options::from_map({{"HL_ANSOR_MEMORY_LIMIT", "2GiB"}}).memory_limit == 2ull << 30);
    CHECK(Options::from_map({{"HL_ANSOR_MEMORY_LIMIT", "1T"}}).memory_limit == 1ull << 40);
    for (const char *bad : {"", "-1", "1.5G", "12X", "G", "99999999999T", "4 G"}) {
        CAPTURE(bad);
        CHECK_THROWS_WITH_AS(Options::from_map({{"HL_ANSOR_MEMORY_LIMIT", bad}}),
                             doctest::Contains("HL_ANSOR_MEMORY_LIMIT"), ansor::UserError);
    }
    ansor::SessionSettings s = ansor::session_settings(Options::from_map({{"HL_ANSOR_MEMORY_LIMIT", "3G"}}),
                                                       ansor::PipelineDAG(ansor_test::make_matmul(16).functions(), 2),
                                                       Halide::get_host_target());
    CHECK(s.measure.memory_limit_bytes == 3ull << 30);
    CHECK(ansor::memory_size_text(3ull << 30) == "3.0 GiB");
}

TEST_CASE("options: HL_ANSOR_ALLOW_ROOT_FALLBACK is off unless asked for") {
    CHECK_FALSE(Options::from_map({}).allow_root_fallback);
    CHECK(Options::from_map({{"HL_ANSOR_ALLOW_ROOT_FALLBACK", "1"}}).allow_root_fallback);
    CHECK_THROWS_WITH_AS(Options::from_map({{"HL_ANSOR_ALLOW_ROOT_FALLBACK", "maybe"}}),
                         doctest::Contains("HL_ANSOR_ALLOW_ROOT_FALLBACK"), ansor::UserError);
}

TEST_CASE("options: the tile-size limits reach the annotator, each for its kind of loop") {
    Options o = Options::from_map({{"HL_ANSOR_MAX_INNERMOST_FACTOR", "32"},
                                   {"HL_ANSOR_MAX_REDUCTION_FACTOR", "512"},
                                   {"HL_ANSOR_MAX_CONSUMER_TILE", "256"}});
    ansor::AnnotationOptions ao = ansor::annotation_options(o, 2);
    CHECK(ao.max_consumer_tile == 256);
    CHECK(Options::from_map({}).max_consumer_tile == 512);
    CHECK(ao.parallelism == 2);
    CHECK(ao.max_inner_factor(ansor::LoopKind::Space) == 32);
    CHECK(ao.max_inner_factor(ansor::LoopKind::Reduction) == 512);
    CHECK(Options::from_map({}).max_reduction_factor == 64);  // Ansor's limit, for both kinds
    CHECK_THROWS_WITH_AS(Options::from_map({{"HL_ANSOR_MAX_REDUCTION_FACTOR", "0"}}),
                         doctest::Contains("HL_ANSOR_MAX_REDUCTION_FACTOR"), ansor::UserError);
}

TEST_CASE("options: HL_ANSOR_TIMING picks where CPU candidates are timed; other values name the choices") {
    CHECK(Options::from_map({}).fresh_process_timing);
    CHECK_FALSE(Options::from_map({{"HL_ANSOR_TIMING", "in-tuner"}}).fresh_process_timing);
    CHECK(Options::from_map({{"HL_ANSOR_TIMING", "fresh-process"}}).fresh_process_timing);
    CHECK_THROWS_WITH_AS(Options::from_map({{"HL_ANSOR_TIMING", "rungen"}}),
                         doctest::Contains("HL_ANSOR_TIMING='rungen' is not one of: in-tuner, fresh-process"),
                         ansor::UserError);
}

TEST_CASE("options: HL_ANSOR_RUNNER names the runner; HL_ANSOR_GPU_RUNNER, its old name, still works with a warning") {
    std::ostringstream warnings;
    CHECK(Options::from_map({{"HL_ANSOR_RUNNER", "/opt/ansor_runner"}}, warnings).runner == "/opt/ansor_runner");
    CHECK(warnings.str().empty());
    CHECK(Options::from_map({}).runner.empty());

    const Options old = Options::from_map({{"HL_ANSOR_GPU_RUNNER", "/old/ansor_runner"}}, warnings);
    CHECK(old.runner == "/old/ansor_runner");
    CHECK(warnings.str() == "[ansor] warning: HL_ANSOR_GPU_RUNNER is deprecated; use HL_ANSOR_RUNNER\n");
    // Its malformed values are errors naming it.
    CHECK_THROWS_WITH_AS(Options::from_map({{"HL_ANSOR_GPU_RUNNER", ""}}, warnings),
                         doctest::Contains("HL_ANSOR_GPU_RUNNER is empty"), ansor::UserError);

    std::ostringstream both_warnings;
    const Options both = Options::from_map(
        {{"HL_ANSOR_GPU_RUNNER", "/old/ansor_runner"}, {"HL_ANSOR_RUNNER", "/new/ansor_runner"}}, both_warnings);
    CHECK(both.runner == "/new/ansor_runner");
    CHECK(both_warnings.str() == "[ansor] warning: HL_ANSOR_GPU_RUNNER is deprecated; use HL_ANSOR_RUNNER "
                                 "(both are set: HL_ANSOR_RUNNER wins)\n");
    // The old name is not listed among the options.
    CHECK(Options::documentation().count("HL_ANSOR_RUNNER") == 1);
    CHECK(Options::documentation().count("HL_ANSOR_GPU_RUNNER") == 0);
}

namespace {

// The README's option table as the options document themselves: one row per
// option, in their order.
std::vector<std::string> option_table_rows() {
    std::vector<std::string> rows = {"| variable | meaning (default) |", "|---|---|"};
    for (const auto &[name, doc] : Options::documentation_in_order()) rows.push_back("| `" + name + "` | " + doc + " |");
    return rows;
}

}  // namespace

TEST_CASE("options: the README's option table is generated from the options' documentation") {
    const std::filesystem::path source_dir = std::filesystem::path(__FILE__).parent_path().parent_path().parent_path();
    std::ifstream readme(source_dir / "README.md");
    REQUIRE(readme.good());
    std::vector<std::string> table;
    for (std::string line; std::getline(readme, line);) {
        if (line == "| variable | meaning (default) |") table.push_back(line);
        else if (!table.empty() && line.rfind("|", 0) == 0) table.push_back(line);
        else if (!table.empty()) break;
    }
    const std::vector<std::string> expected = option_table_rows();
    // On a difference, the table to paste into the README is written here.
    const std::filesystem::path written = std::filesystem::temp_directory_path() / "ansor_readme_option_table.md";
    std::ofstream(written) << [&] {
        std::string all;
        for (const std::string &row : expected) all += row + "\n";
        return all;
    }();
    INFO("README.md's option table differs from Options::documentation_in_order(); the generated table is in "
         << written.string());
    CHECK(table.size() == expected.size());
    for (size_t i = 0; i < std::min(table.size(), expected.size()); i++) {
        CAPTURE(i);
        CHECK(table[i] == expected[i]);
    }
}
