// Task files (errors name the file, task and field), family keys, and
// foresee tuning's transfer of a program between tasks of one family.
#include "network/families.h"
#include "network/task_file.h"
#include "network/task_run.h"

#include "sketch/sketch_generator.h"

#include <doctest/doctest.h>

using namespace ansor;
using nlohmann::json;

namespace {

TaskFile parse(const std::string &text) { return parse_task_file(json::parse(text), "f.json"); }

TuningSetup setup() {
    TuningSetup s;
    s.target = Halide::Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");
    return s;
}

TaskSpec conv(const std::string &name, int h, int ci, int p) {
    TaskSpec t;
    t.name = name;
    t.generator = "conv2d_bias_act";
    t.params = {{"N", "1"}, {"H", std::to_string(h)}, {"W", std::to_string(h)}, {"CI", std::to_string(ci)}, {"CO", "8"},
                {"k", "3"}, {"s", "1"}, {"p", std::to_string(p)}, {"act", "1"}, {"residual", "0"}};
    t.networks = {"n"};
    return t;
}

}  // namespace

TEST_CASE("task file: a well-formed file") {
    TaskFile f = parse(R"({"network": "a", "networks": {"b": {"latency_requirement_ms": 2}},
        "tasks": [{"name": "t0", "generator": "gmm", "params": {"N": 8, "M": 8, "K": 8, "B": 1}, "weight": 3},
                  {"name": "t1", "generator": "gmm", "networks": ["a", "b"], "family": "mm", "reference_ms": 0.5}]})");
    REQUIRE(f.tasks.size() == 2);
    CHECK(f.tasks[0].params.at("N") == "8");
    CHECK(f.tasks[0].weight == 3);
    CHECK(f.tasks[0].networks == std::vector<std::string>{"a"});
    CHECK(f.tasks[1].networks == std::vector<std::string>{"a", "b"});
    CHECK(f.tasks[1].family == "mm");
    CHECK(*f.tasks[1].reference_ms == 0.5);
    REQUIRE(f.networks.size() == 2);
    CHECK(*f.networks[f.network_index("b")].latency_requirement_ms == 2);
}

TEST_CASE("task file: malformed files are errors naming file, task and field") {
    CHECK_THROWS_WITH_AS(parse(R"({"tasks": []})"), doctest::Contains("f.json: 'tasks' must be a non-empty array"),
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(parse(R"({"network": "a", "tasks": [{"name": "x", "generator": "gmm", "wieght": 2}]})"),
                         doctest::Contains("task 0 ('x'): unknown field 'wieght'"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(parse(R"({"network": "a", "tasks": [{"name": "x"}]})"),
                         doctest::Contains("missing field 'generator'"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(parse(R"({"network": "a", "tasks": [{"name": "x", "generator": "g"}, {"name": "x", "generator": "g"}]})"),
                         doctest::Contains("task 1 ('x'): task name 'x' is used twice"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(parse(R"({"network": "a", "tasks": [{"name": "x", "generator": "g", "weight": 0}]})"),
                         doctest::Contains("'weight' must be a positive number"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(parse(R"({"tasks": [{"name": "x", "generator": "g"}]})"),
                         doctest::Contains("no 'networks' and no file-level 'network'"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(parse(R"({"network": "a", "tasks": [{"name": "x", "generator": "g", "params": {"N": 1.5}}]})"),
                         doctest::Contains("param 'N' must be an integer"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(load_task_file("/nonexistent/tasks.json"), doctest::Contains("cannot read task file"),
                         std::invalid_argument);
}

TEST_CASE("families: by generator, or by operation sequence (sizes blanked, structure kept)") {
    TaskRun a(conv("a", 8, 4, 1), setup()), b(conv("b", 12, 6, 1), setup()), c(conv("c", 8, 4, 0), setup());
    CHECK(family_key(a.spec(), a.key(), FamilyRule::Generator) == "conv2d_bias_act");
    CHECK(family_key(a.spec(), a.key(), FamilyRule::Structure) == family_key(b.spec(), b.key(), FamilyRule::Structure));
    // p = 0 has no padding stage: another operation sequence.
    CHECK(family_key(a.spec(), a.key(), FamilyRule::Structure) != family_key(c.spec(), c.key(), FamilyRule::Structure));
    TaskSpec named = conv("d", 8, 4, 1);
    named.family = "mine";
    CHECK(family_key(named, a.key(), FamilyRule::Structure) == "mine");
}

TEST_CASE("foresee: a program of one task is rebuilt for a task of the same structure, not for another") {
    TaskRun a(conv("a", 8, 4, 1), setup()), b(conv("b", 12, 6, 1), setup()), c(conv("c", 8, 4, 0), setup());
    ansor::AnnotationOptions ao;
    ao.parallelism = 2;
    ansor::RandomAnnotator annotator(a.dag(), setup().target, ao);
    ansor::ProgramSampler sampler(ansor::generate_sketches({a.dag(), setup().target}), annotator);
    std::mt19937_64 rng(1);
    std::optional<ansor::State> s = sampler.sample(rng);
    REQUIRE(s);
    std::optional<ansor::State> moved = b.transfer(*s, a);
    REQUIRE(moved);
    CHECK_NOTHROW(moved->replay());
    CHECK(&moved->dag() == &b.dag());
    // The steps name the padding stage, which c does not have.
    CHECK_FALSE(c.transfer(*s, a));
}
