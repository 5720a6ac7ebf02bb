// The command-line helper: typed values, defaults, lists, required and
// positional arguments, and the messages of a bad command line.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "cli.h"

#include <cstdint>

namespace {

struct Args {
    bool quiet = false;
    std::string out = "a.json";
    int trials = 200;
    uint64_t seed = 7;
    double share = 0.2;
    std::vector<std::string> ops = {"gmm", "nrm"}, cases;
    std::vector<int> sizes;
    std::vector<std::string> logs;
    std::string first;
};

// A parser of every kind, over a.
ansor_cli::Parser parser(Args &a) {
    ansor_cli::Parser p("tool", "Does things.");
    p.option("--quiet", &a.quiet, "says less");
    p.option("--out", &a.out, "the file written", "FILE");
    p.option("--trials", &a.trials, "trials per task");
    p.option("--seed", &a.seed, "the random seed");
    p.option("--share", &a.share, "the share held out");
    p.option("--ops", &a.ops, "operators");
    p.option("--sizes", &a.sizes, "sizes");
    p.option("--case", &a.cases, "cases", "G:K=V,K=V").whole();
    return p;
}

std::string error_of(ansor_cli::Parser &p, const std::vector<std::string> &args) {
    try {
        p.parse_or_throw(args);
    } catch (const ansor_cli::Error &e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("typed values and defaults") {
    Args a;
    ansor_cli::Parser p = parser(a);
    p.parse_or_throw({"--quiet", "--trials", "16", "--seed=18446744073709551615", "--share", "0.5"});
    CHECK(a.quiet);
    CHECK(a.trials == 16);
    CHECK(a.seed == UINT64_MAX);
    CHECK(a.share == 0.5);
    CHECK(a.out == "a.json");
    CHECK(a.ops == std::vector<std::string>{"gmm", "nrm"});
    CHECK(p.given("--trials"));
    CHECK_FALSE(p.given("--out"));
    CHECK(p.usage().find("(default a.json)") != std::string::npos);
    CHECK(p.usage().find("(default gmm,nrm)") != std::string::npos);
}

TEST_CASE("lists split on commas; repeats add to them, replacing the default") {
    Args a;
    ansor_cli::Parser p = parser(a);
    p.parse_or_throw({"--ops", "conv,,gmm", "--ops", "softmax", "--sizes", "1,2,3", "--case", "g:N=1,M=2", "--case", "h"});
    CHECK(a.ops == std::vector<std::string>{"conv", "gmm", "softmax"});
    CHECK(a.sizes == std::vector<int>{1, 2, 3});
    CHECK(a.cases == std::vector<std::string>{"g:N=1,M=2", "h"});
}

TEST_CASE("positional arguments, in order; a list takes the rest") {
    Args a;
    ansor_cli::Parser p("tool");
    p.positional("FIRST", &a.first, "first");
    p.positional("LOG", &a.logs, "logs").optional();
    p.option("--corpus", &a.cases, "corpus files").whole().greedy();
    p.option("--trials", &a.trials, "trials");
    p.parse_or_throw({"x", "l1", "--corpus", "c1", "c2", "--trials", "3", "l2"});
    CHECK(a.first == "x");
    CHECK(a.logs == std::vector<std::string>{"l1", "l2"});
    CHECK(a.cases == std::vector<std::string>{"c1", "c2"});
    CHECK(a.trials == 3);
    CHECK(error_of(p, {}) == "missing FIRST");
}

TEST_CASE("a missing required option is named") {
    Args a;
    ansor_cli::Parser p("tool");
    p.option("--out", &a.out, "the file written", "FILE").required();
    CHECK(error_of(p, {}) == "missing --out FILE");
    CHECK(p.usage().find("usage: tool --out FILE\n") == 0);
}

TEST_CASE("unknown options, stray arguments and missing values are named") {
    Args a;
    ansor_cli::Parser p = parser(a);
    CHECK(error_of(p, {"--trails", "3"}) == "unknown option --trails");
    CHECK(error_of(p, {"--trails=3"}) == "unknown option --trails");
    CHECK(error_of(p, {"stray"}) == "unexpected argument stray");
    CHECK(error_of(p, {"--out"}) == "missing value after --out");
    CHECK(error_of(p, {"--quiet=1"}) == "--quiet takes no value");
}

TEST_CASE("malformed numbers are named") {
    Args a;
    ansor_cli::Parser p = parser(a);
    CHECK(error_of(p, {"--trials", "12x"}) == "--trials takes an integer, not '12x'");
    CHECK(error_of(p, {"--trials", "99999999999"}) == "--trials takes an integer, not '99999999999'");
    CHECK(error_of(p, {"--seed", "-1"}) == "--seed takes a whole number >= 0, not '-1'");
    CHECK(error_of(p, {"--share", ""}) == "--share takes a number, not ''");
    CHECK(error_of(p, {"--sizes", "1,b"}) == "--sizes takes an integer, not 'b'");
}

TEST_CASE("--help asks for the usage, which lists every declaration") {
    Args a;
    ansor_cli::Parser p = parser(a);
    CHECK_THROWS_AS(p.parse_or_throw({"--trials", "3", "--help"}), ansor_cli::HelpAsked);
    const std::string u = p.usage();
    CHECK(u.find("usage: tool [--quiet] [--out FILE] [--trials N]") == 0);
    CHECK(u.find("Does things.") != std::string::npos);
    CHECK(u.find("trials per task (default 200)") != std::string::npos);
    CHECK(u.find("--help") != std::string::npos);
}
