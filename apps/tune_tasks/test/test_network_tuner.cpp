// NetworkTuner's settings and objectives (unknown names and missing data are
// UserErrors naming them), and its task list; the tuning loop itself runs in
// the resume and MPI tests.
#include "network/network_tuner.h"

#include "util/errors.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <string>

using namespace ansor;
using nlohmann::json;

namespace {

TuningSetup cpu_setup() {
    TuningSetup s;
    s.target = Halide::Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");
    return s;
}

TaskFile two_gmm_tasks(int second_n) {
    json small = {{"name", "small"}, {"generator", "gmm"}, {"params", {{"N", 8}, {"M", 8}, {"K", 8}, {"B", 1}}}, {"weight", 2}};
    json other = {{"name", "other"}, {"generator", "gmm"}, {"params", {{"N", second_n}, {"M", 8}, {"K", 8}, {"B", 1}}}};
    return parse_task_file({{"network", "net"}, {"tasks", {small, other}}}, "two.json");
}

std::string listed(const NetworkTuner &tuner) {
    std::FILE *f = std::tmpfile();
    REQUIRE(f);
    tuner.list(f);
    std::rewind(f);
    std::string text;
    for (int c; (c = std::fgetc(f)) != EOF;) text += (char)c;
    std::fclose(f);
    return text;
}

}  // namespace

TEST_CASE("network tuner: choices by name; an unknown name is a UserError naming it") {
    for (std::string name : {"f1", "f2", "f3", "f4"}) CHECK(network_objective_name(parse_network_objective(name)) == name);
    for (std::string name : {"per-task", "family", "monolithic"}) CHECK(model_grouping_name(parse_model_grouping(name)) == name);
    for (std::string name : {"gradient", "round-robin"}) CHECK(schedule_policy_name(parse_schedule_policy(name)) == name);
    CHECK_THROWS_WITH_AS(parse_network_objective("f5"), doctest::Contains("'f5'"), UserError);
    CHECK_THROWS_WITH_AS(parse_model_grouping("shared"), doctest::Contains("'shared'"), UserError);
    CHECK_THROWS_WITH_AS(parse_schedule_policy("greedy"), doctest::Contains("'greedy'"), UserError);
}

TEST_CASE("network tuner: early stopping is off by default, 4 units with f4, and f4 needs some") {
    NetworkTunerSettings s;
    CHECK(scheduler_options(s).early_stopping == 0);
    s.objective = NetworkObjective::F4;
    CHECK(scheduler_options(s).early_stopping == 4);
    s.early_stopping = 2;
    CHECK(scheduler_options(s).early_stopping == 2);
    s.early_stopping = 0;
    CHECK_THROWS_AS(scheduler_options(s), UserError);
}

TEST_CASE("network tuner: f2 needs every network's requirement and f3 every task's reference, naming the file") {
    TaskFile file = two_gmm_tasks(16);
    std::vector<Task> tasks(2);
    tasks[0].name = "small";
    tasks[1].name = "other";
    CHECK(make_network_objective(NetworkObjective::F1, tasks, file) != nullptr);
    CHECK_THROWS_WITH_AS(make_network_objective(NetworkObjective::F2, tasks, file),
                         doctest::Contains("two.json: --objective f2 needs networks.net.latency_requirement_ms"), UserError);
    CHECK_THROWS_WITH_AS(make_network_objective(NetworkObjective::F3, tasks, file),
                         doctest::Contains("two.json: --objective f3 needs reference_ms"), UserError);
    file.networks[0].latency_requirement_ms = 1;
    tasks[0].reference_latency = tasks[1].reference_latency = 1;
    CHECK(make_network_objective(NetworkObjective::F2, tasks, file) != nullptr);
    CHECK(make_network_objective(NetworkObjective::F3, tasks, file) != nullptr);
}

TEST_CASE("network tuner: the tasks as built, and two tasks of one pipeline refused") {
    NetworkTuner tuner(two_gmm_tasks(16), cpu_setup(), NetworkTunerSettings{});
    REQUIRE(tuner.tasks().size() == 2);
    CHECK(tuner.tasks()[0].weight == 2);
    CHECK(tuner.tasks()[0].family == "gmm");
    CHECK(tuner.tasks()[1].flops > tuner.tasks()[0].flops);
    const std::string text = listed(tuner);
    CHECK(text.find("small") != std::string::npos);
    CHECK(text.find("B=1 K=8 M=8 N=16") != std::string::npos);
    CHECK_THROWS_WITH_AS(NetworkTuner(two_gmm_tasks(8), cpu_setup(), NetworkTunerSettings{}),
                         doctest::Contains("two.json: tasks 'small' and 'other' are the same pipeline"), UserError);
}
