// Layers with a bias (conv2d_bias, matmul_bias): the merges a network's
// layers need are generated and proved, and wrong variants are not.
#include "generate.h"
#include "numeric_check.h"
#include "test_helpers.h"
#include "verify.h"

#include <doctest/doctest.h>

using namespace taso;
using taso_test::make_sub;

namespace {

// A [m,k]; B [k,n], C [k,p] weights; b1 [n], b2 [p] biases.
const char *kDenseInputs =
    R"([{"name":"A","kind":"tensor","shape":["m","k"]},{"name":"B","kind":"weight","shape":["k","n"]},)"
    R"({"name":"C","kind":"weight","shape":["k","p"]},{"name":"b1","kind":"weight","shape":["n"]},)"
    R"({"name":"b2","kind":"weight","shape":["p"]}])";

// X [b,c,h,w]; W1 [o,c,3,3], W3 [p,c,1,1]; b1 [o], b2 [p].
const char *kConvBiasInputs =
    R"([{"name":"X","kind":"tensor","shape":["b","c","h","w"]},{"name":"W1","kind":"weight","shape":["o","c","3","3"]},)"
    R"({"name":"W3","kind":"weight","shape":["p","c","1","1"]},{"name":"b1","kind":"weight","shape":["o"]},)"
    R"({"name":"b2","kind":"weight","shape":["p"]}])";

bool proves(Verifier &v, const Substitution &s) { return v.prove_equal(s.family, s.source, s.target, s.outputs); }

bool numerically_holds(const Substitution &s) {
    std::vector<int64_t> sizes;
    for (int i = 0; i < s.family.symbols.size(); i++) sizes.push_back(3 + i);
    return numerically_equal(s.family, s.source, s.target, s.outputs, sizes, 5, 3);
}

// Two dense layers sharing A = one layer over [B | C] and [b1 ; bb], split.
Substitution dense_merge(const char *second_bias) {
    return make_sub(kDenseInputs,
                    R"({"ops":[{"op":"matmul_bias","operands":["A","B","b1"]},{"op":"matmul_bias","operands":["A","C","b2"]}],"outputs":["%0","%1"]})",
                    std::string(R"({"ops":[{"op":"concat","attrs":{"axis":1},"operands":["B","C"]},)"
                                R"({"op":"concat","attrs":{"axis":0},"operands":["b1",")") + second_bias + R"("]},)"
                                R"({"op":"matmul_bias","operands":["A","%0","%1"]},{"op":"split","attrs":{"axis":1},"operands":["%2"]}],"outputs":["%3","%3.1"]})",
                    "[[0,0],[1,1]]");
}

// A fire module: a 1x1 and a 3x3 layer (relu) on X, concatenated = one 3x3
// layer over [W1 ; enlarge(W3)] and the stacked biases.
Substitution fire_merge(const char *activation_after_merge, const char *bias_order) {
    return make_sub(kConvBiasInputs,
                    R"({"ops":[{"op":"conv2d_bias","attrs":{"stride":1,"padding":"same","activation":"relu"},"operands":["X","W1","b1"]},)"
                    R"({"op":"conv2d_bias","attrs":{"stride":1,"padding":"same","activation":"relu"},"operands":["X","W3","b2"]},)"
                    R"({"op":"concat","attrs":{"axis":1},"operands":["%0","%1"]}],"outputs":["%2"]})",
                    std::string(R"({"ops":[{"op":"enlarge","attrs":{"kernel":3},"operands":["W3"]},)"
                                R"({"op":"concat","attrs":{"axis":0},"operands":["W1","%0"]},)"
                                R"({"op":"concat","attrs":{"axis":0},"operands":[)") + bias_order + R"(]},)"
                    R"({"op":"conv2d_bias","attrs":{"stride":1,"padding":"same","activation":")" + activation_after_merge +
                        R"("},"operands":["X","%1","%2"]}],"outputs":["%3"]})");
}

}  // namespace

TEST_CASE("bias layers: merging dense layers over stacked weights and biases is proved") {
    Verifier v;
    auto right = dense_merge("b2");
    CHECK(proves(v, right));
    CHECK(numerically_holds(right));
}

TEST_CASE("bias layers: a fire module's two layers merge into one 3x3 layer") {
    Verifier v;
    auto right = fire_merge("relu", R"("b1","b2")");
    CHECK(proves(v, right));
    CHECK(numerically_holds(right));
    // Biases in the wrong order (ill-shaped unless o = p, then wrong), or
    // the activation dropped: neither is proved nor holds.
    auto no_relu = fire_merge("none", R"("b1","b2")");
    CHECK_FALSE(proves(v, no_relu));
    CHECK_FALSE(numerically_holds(no_relu));
}

TEST_CASE("bias layers: swapped biases are neither proved nor numerically equal") {
    // The kernels stacked [B | C] but the biases [b2 ; b1]: with n = p the
    // graph is well-shaped, and wrong.
    const char *inputs =
        R"([{"name":"A","kind":"tensor","shape":["m","k"]},{"name":"B","kind":"weight","shape":["k","n"]},)"
        R"({"name":"C","kind":"weight","shape":["k","n"]},{"name":"b1","kind":"weight","shape":["n"]},)"
        R"({"name":"b2","kind":"weight","shape":["n"]}])";
    auto wrong = make_sub(inputs,
                          R"({"ops":[{"op":"matmul_bias","operands":["A","B","b1"]},{"op":"matmul_bias","operands":["A","C","b2"]},)"
                          R"({"op":"concat","attrs":{"axis":1},"operands":["%0","%1"]}],"outputs":["%2"]})",
                          R"({"ops":[{"op":"concat","attrs":{"axis":1},"operands":["B","C"]},{"op":"concat","attrs":{"axis":0},"operands":["b2","b1"]},)"
                          R"({"op":"matmul_bias","operands":["A","%0","%1"]}],"outputs":["%2"]})");
    Verifier v;
    CHECK_FALSE(proves(v, wrong));
    CHECK_FALSE(numerically_holds(wrong));
}

TEST_CASE("bias layers: the generator keeps the merges a network needs") {
    // The biased families at their own depth (four operators), restricted to
    // the inputs of one merge so that the test stays fast.
    GenerateOptions opts;
    std::vector<EnumerationFamily> families;
    for (EnumerationFamily f : default_families())
        if (f.family.name == "dense_bias") families.push_back(f);
    REQUIRE(families.size() == 1);
    CHECK(families[0].max_ops == 4);
    opts.families = families;
    auto r = generate_substitutions(opts);
    bool merge = false;
    for (const Substitution &s : r.kept) {
        std::string text = describe(s);
        if (text.find("split1(axis=1;matmul_bias(A,concat(axis=1;B,C),concat(axis=0;b1,b2)))") != std::string::npos ||
            text.find("split0(axis=1;matmul_bias(A,concat(axis=1;B,C),concat(axis=0;b1,b2)))") != std::string::npos)
            merge = true;
    }
    CHECK(merge);
    // Nothing kept is weight preparation alone.
    CHECK(r.total.pruned_weights > 0);
    for (const Substitution &s : r.kept) {
        bool reads_data = false;
        for (const PatternGraph *g : {&s.source, &s.target})
            for (const PatternOp &op : g->ops)
                for (const TensorRef &ref : op.operands)
                    if (ref.op < 0 && s.family.inputs[ref.index].kind == InputKind::Tensor) reads_data = true;
        CHECK(reads_data);
    }
}
