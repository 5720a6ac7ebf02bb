// The Z3 verifier proves known substitutions and not wrong ones; a wrong
// axiom slipped into the axiom set is caught by the numeric checks.
#include "enumerate.h"
#include "generate.h"
#include "numeric_check.h"
#include "test_helpers.h"
#include "verify.h"

#include <doctest/doctest.h>

using namespace taso;
using taso_test::kConvInputs;
using taso_test::kMatrixInputs;
using taso_test::make_sub;

namespace {

bool proves(Verifier &v, const Substitution &s) { return v.prove_equal(s.family, s.source, s.target, s.outputs); }

bool numerically_holds(const Substitution &s) {
    std::vector<int64_t> sizes;
    for (int i = 0; i < s.family.symbols.size(); i++) sizes.push_back(4 + i);  // distinct sizes
    return numerically_equal(s.family, s.source, s.target, s.outputs, sizes, 5, 3);
}

// relu(B + C) = relu(B) + relu(C): false (B = 1, C = -1).
Substitution wrong_relu_sub() {
    return make_sub(kMatrixInputs, R"({"ops":[{"op":"ewadd","operands":["B","C"]},{"op":"relu","operands":["%0"]}],"outputs":["%1"]})",
                    R"({"ops":[{"op":"relu","operands":["B"]},{"op":"relu","operands":["C"]},{"op":"ewadd","operands":["%0","%1"]}],"outputs":["%2"]})");
}

// The wrong axiom: relu distributes over ewadd.
Axiom wrong_relu_axiom() {
    return Axiom{"WRONG_relu_distributes_over_ewadd", [](const Z3Signature &S) {
                     z3::expr x = S.ctx.constant("x", S.T), y = S.ctx.constant("y", S.T);
                     z3::expr_vector vars(S.ctx);
                     vars.push_back(x);
                     vars.push_back(y);
                     z3::expr l = S.relu(S.ewadd(x, y)), r = S.ewadd(S.relu(x), S.relu(y));
                     return forall_with_patterns(vars, l == r, {{l}, {r}});
                 }};
}

}  // namespace

TEST_CASE("verify: matmul distributes over ewadd") {
    Verifier v;
    auto s = make_sub(kMatrixInputs,
                      R"({"ops":[{"op":"matmul","operands":["A","B"]},{"op":"matmul","operands":["A","C"]},{"op":"ewadd","operands":["%0","%1"]}],"outputs":["%2"]})",
                      R"({"ops":[{"op":"ewadd","operands":["B","C"]},{"op":"matmul","operands":["A","%0"]}],"outputs":["%1"]})");
    CHECK(proves(v, s));
    CHECK(numerically_holds(s));
}

TEST_CASE("verify: matmul associativity and the transpose of a product") {
    Verifier v;
    auto assoc = make_sub(kMatrixInputs,
                          R"({"ops":[{"op":"matmul","operands":["A","B"]},{"op":"matmul","operands":["%0","D"]}],"outputs":["%1"]})",
                          R"({"ops":[{"op":"matmul","operands":["B","D"]},{"op":"matmul","operands":["A","%0"]}],"outputs":["%1"]})");
    CHECK(proves(v, assoc));
    auto tr = make_sub(kMatrixInputs,
                       R"({"ops":[{"op":"matmul","operands":["A","B"]},{"op":"transpose","operands":["%0"]}],"outputs":["%1"]})",
                       R"({"ops":[{"op":"transpose","operands":["B"]},{"op":"transpose","operands":["A"]},{"op":"matmul","operands":["%0","%1"]}],"outputs":["%2"]})");
    CHECK(proves(v, tr));
    CHECK(numerically_holds(tr));
}

TEST_CASE("verify: two matmuls sharing an operand become one over concatenated columns") {
    Verifier v;
    auto s = make_sub(kMatrixInputs,
                      R"({"ops":[{"op":"matmul","operands":["A","B"]},{"op":"matmul","operands":["A","C"]}],"outputs":["%0","%1"]})",
                      R"({"ops":[{"op":"concat","attrs":{"axis":1},"operands":["B","C"]},{"op":"matmul","operands":["A","%0"]},)"
                      R"({"op":"split","attrs":{"axis":1},"operands":["%1"]}],"outputs":["%2","%2.1"]})",
                      "[[0,0],[1,1]]");
    CHECK(proves(v, s));
    CHECK(numerically_holds(s));
}

TEST_CASE("verify: convolutions with concatenated kernels") {
    Verifier v;
    for (const char *conv : {R"({"stride":1,"padding":"same","activation":"relu"})",
                             R"({"stride":2,"padding":"valid","activation":"none"})"}) {
        std::string c = conv;
        auto s = make_sub(kConvInputs,
                          R"({"ops":[{"op":"conv2d","attrs":)" + c + R"(,"operands":["X","W1"]},{"op":"conv2d","attrs":)" + c +
                              R"(,"operands":["X","W2"]}],"outputs":["%0","%1"]})",
                          R"({"ops":[{"op":"concat","attrs":{"axis":0},"operands":["W1","W2"]},{"op":"conv2d","attrs":)" + c +
                              R"(,"operands":["X","%0"]},{"op":"split","attrs":{"axis":1},"operands":["%1"]}],"outputs":["%2","%2.1"]})",
                          "[[0,0],[1,1]]");
        CHECK(proves(v, s));
        CHECK(numerically_holds(s));
    }
}

TEST_CASE("verify: an enlarged kernel under same padding, and residual fusion") {
    Verifier v;
    auto enlarge = make_sub(kConvInputs,
                            R"({"ops":[{"op":"enlarge","attrs":{"kernel":3},"operands":["W3"]},)"
                            R"({"op":"conv2d","attrs":{"stride":2,"padding":"same","activation":"none"},"operands":["X","%0"]}],"outputs":["%1"]})",
                            R"({"ops":[{"op":"conv2d","attrs":{"stride":2,"padding":"same","activation":"none"},"operands":["X","W3"]}],"outputs":["%0"]})");
    CHECK(proves(v, enlarge));
    CHECK(numerically_holds(enlarge));
    // conv(X, W1) + X = conv(X, W1 + enlarge(I))
    auto residual = make_sub(kConvInputs,
                             R"({"ops":[{"op":"conv2d","attrs":{"stride":1,"padding":"same","activation":"none"},"operands":["X","W1"]},)"
                             R"({"op":"ewadd","operands":["%0","X"]}],"outputs":["%1"]})",
                             R"({"ops":[{"op":"enlarge","attrs":{"kernel":3},"operands":["I"]},{"op":"ewadd","operands":["W1","%0"]},)"
                             R"({"op":"conv2d","attrs":{"stride":1,"padding":"same","activation":"none"},"operands":["X","%1"]}],"outputs":["%2"]})");
    CHECK(proves(v, residual));
    CHECK(numerically_holds(residual));
    // The same with valid padding is false (the enlarged kernel shrinks the
    // output) and is not even well-shaped: the loader says so.
    CHECK_THROWS_WITH_AS(make_sub(kConvInputs,
                                  R"({"ops":[{"op":"conv2d","attrs":{"stride":1,"padding":"valid","activation":"none"},"operands":["X","W1"]},)"
                                  R"({"op":"ewadd","operands":["%0","X"]}],"outputs":["%1"]})",
                                  R"({"ops":[{"op":"relu","operands":["X"]}],"outputs":["%0"]})"),
                         doctest::Contains("ewadd needs equal shapes"), std::runtime_error);
}

TEST_CASE("verify: wrong substitutions are not proved") {
    Verifier v;
    auto relu = wrong_relu_sub();
    CHECK_FALSE(proves(v, relu));
    CHECK_FALSE(numerically_holds(relu));
    // transpose(A B) = transpose(A) transpose(B) on square matrices.
    const char *square = R"([{"name":"P","kind":"tensor","shape":["n","n"]},{"name":"Q","kind":"tensor","shape":["n","n"]}])";
    auto tr = make_sub(square,
                       R"({"ops":[{"op":"matmul","operands":["P","Q"]},{"op":"transpose","operands":["%0"]}],"outputs":["%1"]})",
                       R"({"ops":[{"op":"transpose","operands":["P"]},{"op":"transpose","operands":["Q"]},{"op":"matmul","operands":["%0","%1"]}],"outputs":["%2"]})");
    CHECK_FALSE(proves(v, tr));
    CHECK_FALSE(numerically_holds(tr));
}

TEST_CASE("verify: a wrong axiom proves a wrong substitution, and the fingerprints still reject it") {
    VerifyOptions bad;
    bad.extra_axioms.push_back(wrong_relu_axiom());
    Verifier v(bad);
    auto relu = wrong_relu_sub();
    CHECK(proves(v, relu));              // the prover alone is fooled
    CHECK_FALSE(numerically_holds(relu));  // the floating-point check is not

    // In the generator, the pair never becomes a candidate: its two sides
    // have different integer fingerprints.
    GenerateOptions opts;
    opts.max_ops = 3;
    opts.verify = bad;
    opts.families = {default_families().at(0)};  // matrix
    auto result = generate_substitutions(opts);
    REQUIRE(result.total.verified > 0);
    // (relu(A + A) = relu(A) + relu(A) may be kept: with equal operands it
    // is true.)
    for (const Substitution &s : result.kept) CHECK(describe(s) != "ewadd(relu(B),relu(C)) = relu(ewadd(B,C))\n");
    // Every kept substitution holds numerically at fresh sizes.
    for (const Substitution &s : result.kept) CHECK(numerically_holds(s));
}
