// The JSON format: round trip, the numeric checker, and clear errors.
#include "generate.h"
#include "test_helpers.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>

using namespace taso;
using taso_test::document;
using taso_test::kConvInputs;
using taso_test::kMatrixInputs;

TEST_CASE("json: generated substitutions survive a round trip and hold at new sizes") {
    GenerateOptions opts;
    opts.max_ops = 2;
    auto r = generate_substitutions(opts);
    REQUIRE(r.kept.size() > 20);
    std::string path = "taso_test_substitutions.json";
    save_substitutions(path, r.kept);
    auto loaded = load_substitutions(path);
    std::remove(path.c_str());
    REQUIRE(loaded.size() == r.kept.size());
    for (size_t i = 0; i < loaded.size(); i++) {
        CHECK(describe(loaded[i]) == describe(r.kept[i]));
        std::map<std::string, int64_t> sizes{{"m", 5}, {"k", 3}, {"n", 2}, {"b", 2}, {"c", 3}, {"h", 9}, {"w", 6},
                                             {"o", 4}, {"p", 3}, {"q", 5}};
        std::map<std::string, int64_t> needed;
        for (int s = 0; s < loaded[i].family.symbols.size(); s++) {
            const std::string &name = loaded[i].family.symbols.name(s);
            needed[name] = sizes.at(name);
        }
        INFO(describe(loaded[i]));
        CHECK(check_substitution(loaded[i], needed, 9));
    }
}

TEST_CASE("json: the checker rejects a wrong substitution and names missing sizes") {
    // relu(A) = A is wrong.
    auto s = taso_test::make_sub(kMatrixInputs, R"({"ops":[{"op":"relu","operands":["A"]}],"outputs":["%0"]})",
                                 R"({"ops":[{"op":"transpose","operands":["A"]},{"op":"transpose","operands":["%0"]}],"outputs":["%1"]})");
    CHECK_FALSE(check_substitution(s, {{"m", 3}, {"k", 4}, {"n", 1}, {"p", 1}}));
    CHECK_THROWS_WITH_AS(check_substitution(s, {{"m", 3}}), doctest::Contains("'k'"), std::runtime_error);
}

TEST_CASE("json: bad input is reported with the culprit") {
    const std::string ok_src = R"({"ops":[{"op":"relu","operands":["X"]}],"outputs":["%0"]})";
    auto fails_with = [&](const std::string &text, const char *needle) {
        CHECK_THROWS_WITH_AS(parse_substitutions(text, "t.json"), doctest::Contains(needle), std::runtime_error);
    };
    fails_with("{", "t.json: not JSON");
    fails_with(document(kConvInputs, R"({"ops":[{"op":"frobnicate","operands":["X"]}],"outputs":["%0"]})", ok_src, "[[0,0]]"),
               "unknown operator 'frobnicate'");
    fails_with(document(kConvInputs, R"({"ops":[{"op":"relu","operands":["Y"]}],"outputs":["%0"]})", ok_src, "[[0,0]]"),
               "source op #0: unknown operand 'Y'");
    fails_with(document(kConvInputs, R"({"ops":[{"op":"relu","operands":["%3"]}],"outputs":["%0"]})", ok_src, "[[0,0]]"),
               "not an earlier op");
    fails_with(document(kConvInputs, R"({"ops":[{"op":"concat","operands":["X","X"]}],"outputs":["%0"]})", ok_src, "[[0,0]]"),
               "missing \"attrs\" for concat");
    fails_with(document(kConvInputs, R"({"ops":[{"op":"conv2d","attrs":{"stride":1,"padding":"full","activation":"none"},"operands":["X","W1"]}],"outputs":["%0"]})",
                        ok_src, "[[0,0]]"),
               "padding must be same or valid");
    fails_with(document(kConvInputs, R"({"ops":[{"op":"conv2d","attrs":{"stride":1,"padding":"same","activation":"none"},"operands":["W1","X"]}],"outputs":["%0"]})",
                        ok_src, "[[0,0]]"),
               "ill-shaped: op #0 (conv2d)");
    fails_with(document(kConvInputs, ok_src, ok_src, "[[0,1]]"), "out of range");
    fails_with(document(R"([{"name":"X","kind":"blob","shape":["n"]}])", ok_src, ok_src, "[[0,0]]"), "unknown input kind 'blob'");
}
