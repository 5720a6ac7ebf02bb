// Tuning with a log, end to end through autoschedule(): every measurement is
// appended, a second run resumes from the log (and only appends), a run with
// no budget applies the log's best program and prints the same source every
// time, and a process killed mid-tuning leaves a log the next run resumes from.
#include "records/tuning_log.h"
#include "search/autoschedule.h"
#include "test_pipelines.h"
#include "util/errors.h"
#include "util/target.h"

#include <doctest/doctest.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace ansor;

namespace {

const Halide::Target cpu(ansor::project_cpu_target());

std::string read_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Halide numbers repeated Func names within one process (matmul, matmul$1,
// ...); separate builds, as users run them, all see the first name.
std::string without_func_numbers(const std::string &source) {
    return std::regex_replace(source, std::regex("(matmul|A_im|B_im)_[0-9]+"), "$1");
}

size_t count_lines(const std::string &text) {
    size_t n = 0;
    for (char c : text) n += c == '\n';
    return n;
}

Options options_with(const std::string &log, int trials) {
    return Options::from_map({{"HL_ANSOR_LOG", log},
                              {"HL_ANSOR_TRIALS", std::to_string(trials)},
                              {"HL_ANSOR_REPEATS", "2"},
                              {"HL_ANSOR_PROGRESS", "0"},
                              {"HL_ANSOR_MEASURES_PER_ROUND", "3"},
                              {"HL_ANSOR_POPULATION", "64"}});
}

// A fresh matmul each time: applying a schedule changes the Funcs.
AutoscheduleResult tune(const std::string &log, int trials) {
    auto p = ansor_test::make_matmul(64);
    return autoschedule(p.functions(), cpu, 2, options_with(log, trials));
}

std::string temp_log(const char *tag) {
    std::string path = "/tmp/ansor_resume_" + std::string(tag) + "_" + std::to_string(getpid()) + ".jsonl";
    std::remove(path.c_str());
    return path;
}

}  // namespace

TEST_CASE("tuning log: runs append, resume, and a budget of 0 applies the best record reproducibly") {
    const std::string log = temp_log("append");
    AutoscheduleResult first = tune(log, 6);
    CHECK(first.measured);
    std::string after_first = read_file(log);
    CHECK(count_lines(after_first) == 6);

    AutoscheduleResult second = tune(log, 3);
    std::string after_second = read_file(log);
    CHECK(count_lines(after_second) == 9);
    // Only appended: the first run's bytes are untouched.
    CHECK(after_second.compare(0, after_first.size(), after_first) == 0);
    // The resumed run counts the log's programs for the best.
    CHECK(second.best_ms <= first.best_ms);

    AutoscheduleResult a = tune(log, 0), b = tune(log, 0);
    CHECK(a.from_log);
    CHECK(without_func_numbers(a.schedule_source) == without_func_numbers(b.schedule_source));
    CHECK(a.best_ms == second.best_ms);
    CHECK(read_file(log) == after_second);  // applying reads only
    std::remove(log.c_str());
}

TEST_CASE("tuning log: a budget of 0 with a log that lacks the pipeline is an error naming the log") {
    const std::string log = temp_log("missing");
    CHECK_THROWS_WITH_AS(tune(log, 0), doctest::Contains(log.c_str()), UserError);
}

TEST_CASE("tuning log: a run killed mid-tuning leaves a log the next run resumes from") {
    const std::string log = temp_log("killed");
    pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        try {
            tune(log, 1000);
        } catch (...) {
        }
        _exit(0);
    }
    // Kill it once a few records are in.
    for (int i = 0; i < 600 && count_lines(read_file(log)) < 4; i++) usleep(100 * 1000);
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    std::string before = read_file(log);
    size_t lines = count_lines(before);
    REQUIRE(lines >= 4);

    tune(log, 2);
    std::string after = read_file(log);
    CHECK(after.compare(0, before.size(), before) == 0);
    CHECK(count_lines(after) == lines + 2);
    std::remove(log.c_str());
}
