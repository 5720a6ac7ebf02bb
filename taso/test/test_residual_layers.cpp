// A residual block's end (a biased layer, the shortcut addition, relu) and
// the one layer that does all three: the fusion is generated and proved,
// and wrong variants are not.
#include "generate.h"
#include "numeric_check.h"
#include "test_helpers.h"
#include "verify.h"

#include <doctest/doctest.h>

using namespace taso;
using taso_test::make_sub;

namespace {

// X [b,c,h,w]; W1 [o,c,1,1]; b1 [o]; R [b,o,h,w].
const char *kResidualInputs =
    R"([{"name":"X","kind":"tensor","shape":["b","c","h","w"]},{"name":"W1","kind":"weight","shape":["o","c","1","1"]},)"
    R"({"name":"b1","kind":"weight","shape":["o"]},{"name":"R","kind":"tensor","shape":["b","o","h","w"]}])";

bool proves(Verifier &v, const Substitution &s) { return v.prove_equal(s.family, s.source, s.target, s.outputs); }

bool numerically_holds(const Substitution &s) {
    std::vector<int64_t> sizes;
    for (int i = 0; i < s.family.symbols.size(); i++) sizes.push_back(3 + i);
    return numerically_equal(s.family, s.source, s.target, s.outputs, sizes, 5, 3);
}

// layer_act(conv + b1) + R, then relu when `relu_after`, against the fused
// layer with activation `fused_act`.
Substitution fusion(const char *layer_act, bool relu_after, const char *fused_act) {
    std::string source = std::string(R"({"ops":[{"op":"conv2d_bias","attrs":{"stride":1,"padding":"same","activation":")") +
                         layer_act + R"("},"operands":["X","W1","b1"]},{"op":"ewadd","operands":["%0","R"]})";
    source += relu_after ? R"(,{"op":"relu","operands":["%1"]}],"outputs":["%2"]})" : R"(],"outputs":["%1"]})";
    std::string target = std::string(R"({"ops":[{"op":"conv2d_bias_add","attrs":{"stride":1,"padding":"same","activation":")") +
                         fused_act + R"("},"operands":["X","W1","b1","R"]}],"outputs":["%0"]})";
    return make_sub(kResidualInputs, source, target);
}

}  // namespace

TEST_CASE("residual layers: the layer, the addition and relu are one fused layer") {
    Verifier v;
    for (bool relu : {true, false}) {
        auto right = fusion("none", relu, relu ? "relu" : "none");
        CHECK(proves(v, right));
        CHECK(numerically_holds(right));
    }
}

TEST_CASE("residual layers: relu before the addition, or a dropped relu, is neither proved nor equal") {
    Verifier v;
    for (const Substitution &wrong : {fusion("relu", false, "relu"), fusion("none", true, "none"),
                                      fusion("none", false, "relu")}) {
        CHECK_FALSE(proves(v, wrong));
        CHECK_FALSE(numerically_holds(wrong));
    }
}

TEST_CASE("residual layers: the generator keeps the fusion with relu and without") {
    GenerateOptions opts;
    opts.families.clear();
    for (EnumerationFamily f : default_families())
        if (f.family.name == "residual") opts.families.push_back(f);
    REQUIRE(opts.families.size() == 1);
    auto r = generate_substitutions(opts);
    // One side a lone conv2d_bias_add, the other its unfused form.
    bool fused[2] = {false, false};
    for (const Substitution &s : r.kept) {
        for (auto [one, other] : {std::pair{&s.source, &s.target}, std::pair{&s.target, &s.source}}) {
            if (one->ops.size() != 1 || one->ops[0].kind != OpKind::Conv2dBiasAdd) continue;
            bool add = false, layer = false;
            for (const PatternOp &op : other->ops) {
                add = add || op.kind == OpKind::EwAdd;
                layer = layer || op.kind == OpKind::Conv2dBias;
            }
            if (add && layer) fused[one->ops[0].attrs.activation == Activation::Relu] = true;
        }
    }
    CHECK(fused[0]);
    CHECK(fused[1]);
    CHECK(r.total.rejected < r.total.verified);
}
