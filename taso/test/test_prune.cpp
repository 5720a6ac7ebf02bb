// Pruning: renamed duplicates and substitutions implied by smaller ones.
#include "generate.h"
#include "prune.h"
#include "test_helpers.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <set>

using namespace taso;
using taso_test::kMatrixInputs;
using taso_test::make_sub;

namespace {
CandidatePair pair_of(const Substitution &s) { return CandidatePair{s.target, s.source, s.outputs}; }
const std::vector<int64_t> kSizes{4, 3, 5, 2};  // m, k, n, p
}  // namespace

TEST_CASE("prune: a substitution and its input-renamed copy share a key") {
    auto bc = make_sub(kMatrixInputs,
                       R"({"ops":[{"op":"matmul","operands":["A","B"]},{"op":"matmul","operands":["A","C"]},{"op":"ewadd","operands":["%0","%1"]}],"outputs":["%2"]})",
                       R"({"ops":[{"op":"ewadd","operands":["B","C"]},{"op":"matmul","operands":["A","%0"]}],"outputs":["%1"]})");
    auto cb = make_sub(kMatrixInputs,
                       R"({"ops":[{"op":"matmul","operands":["A","C"]},{"op":"matmul","operands":["A","B"]},{"op":"ewadd","operands":["%0","%1"]}],"outputs":["%2"]})",
                       R"({"ops":[{"op":"ewadd","operands":["C","B"]},{"op":"matmul","operands":["A","%0"]}],"outputs":["%1"]})");
    auto other = make_sub(kMatrixInputs,
                          R"({"ops":[{"op":"matmul","operands":["A","B"]},{"op":"matmul","operands":["A","B"]},{"op":"ewadd","operands":["%0","%1"]}],"outputs":["%2"]})",
                          R"({"ops":[{"op":"ewadd","operands":["B","B"]},{"op":"matmul","operands":["A","%0"]}],"outputs":["%1"]})");
    CHECK(canonical_key(bc.family, pair_of(bc)) == canonical_key(cb.family, pair_of(cb)));
    CHECK(canonical_key(bc.family, pair_of(bc)) != canonical_key(other.family, pair_of(other)));
    // Source and target swapped: the same substitution.
    CandidatePair swapped{bc.source, bc.target, {{0, 0}}};
    CHECK(canonical_key(bc.family, swapped) == canonical_key(bc.family, pair_of(bc)));
}

TEST_CASE("prune: a shared operator is abstracted only when the pair stays equal") {
    // transpose(transpose(A B)) = A B: A B can be any tensor -> implied.
    auto tt = make_sub(kMatrixInputs,
                       R"({"ops":[{"op":"matmul","operands":["A","B"]},{"op":"transpose","operands":["%0"]},{"op":"transpose","operands":["%1"]}],"outputs":["%2"]})",
                       R"({"ops":[{"op":"matmul","operands":["A","B"]}],"outputs":["%0"]})");
    CHECK(has_removable_common_subgraph(tt.family, pair_of(tt), kSizes));
    // relu(relu(A)) = relu(A) shares relu(A) but does not hold for an
    // arbitrary tensor in its place -> kept.
    auto rr = make_sub(kMatrixInputs, R"({"ops":[{"op":"relu","operands":["A"]},{"op":"relu","operands":["%0"]}],"outputs":["%1"]})",
                       R"({"ops":[{"op":"relu","operands":["A"]}],"outputs":["%0"]})");
    CHECK_FALSE(has_removable_common_subgraph(rr.family, pair_of(rr), kSizes));
    CHECK_FALSE(has_common_output_operator(rr.family, pair_of(rr), kSizes));
}

TEST_CASE("prune: the same operator over equal operands is implied") {
    // relu(A (B + C)) = relu(A B + A C) is distributivity under relu.
    auto s = make_sub(kMatrixInputs,
                      R"({"ops":[{"op":"matmul","operands":["A","B"]},{"op":"matmul","operands":["A","C"]},{"op":"ewadd","operands":["%0","%1"]},{"op":"relu","operands":["%2"]}],"outputs":["%3"]})",
                      R"({"ops":[{"op":"ewadd","operands":["B","C"]},{"op":"matmul","operands":["A","%0"]},{"op":"relu","operands":["%1"]}],"outputs":["%2"]})");
    CHECK(has_common_output_operator(s.family, pair_of(s), kSizes));
    // Distributivity itself is not.
    auto d = make_sub(kMatrixInputs,
                      R"({"ops":[{"op":"matmul","operands":["A","B"]},{"op":"matmul","operands":["A","C"]},{"op":"ewadd","operands":["%0","%1"]}],"outputs":["%2"]})",
                      R"({"ops":[{"op":"ewadd","operands":["B","C"]},{"op":"matmul","operands":["A","%0"]}],"outputs":["%1"]})");
    CHECK_FALSE(has_common_output_operator(d.family, pair_of(d), kSizes));
    CHECK_FALSE(has_removable_common_subgraph(d.family, pair_of(d), kSizes));
}

TEST_CASE("prune: the generator drops renamed duplicates and keeps one of each") {
    GenerateOptions opts;
    opts.max_ops = 2;
    opts.families = {default_families().at(0)};
    auto r = generate_substitutions(opts);
    CHECK(r.total.pruned_renaming > 0);
    const InputFamily &full = opts.families[0].family;
    // A kept substitution lists only the inputs it uses; refer to the
    // family's full input list again (by name) so renamings are visible.
    auto to_full = [&](const Substitution &s, PatternGraph g) {
        auto fix = [&](TensorRef &ref) {
            if (ref.op >= 0) return;
            std::string name = s.family.inputs.at(ref.index).name;
            for (size_t i = 0; i < full.inputs.size(); i++)
                if (full.inputs[i].name == name) ref.index = (int)i;
        };
        for (PatternOp &op : g.ops)
            for (TensorRef &ref : op.operands) fix(ref);
        for (TensorRef &ref : g.outputs) fix(ref);
        return g;
    };
    std::set<std::string> keys;
    for (const Substitution &s : r.kept) {
        CandidatePair p{to_full(s, s.target), to_full(s, s.source), {}};
        for (auto [a, b] : s.outputs) p.outputs.emplace_back(b, a);
        CHECK(keys.insert(canonical_key(full, p)).second);
    }
}

TEST_CASE("prune: symbol renaming and merged inputs") {
    // transpose(transpose(A)) = A and the same over B ([k,n]) are one.
    auto ta = make_sub(kMatrixInputs, R"({"ops":[{"op":"transpose","operands":["A"]},{"op":"transpose","operands":["%0"]}],"outputs":["%1"]})",
                       R"({"ops":[],"outputs":["A"]})");
    auto tb = make_sub(kMatrixInputs, R"({"ops":[{"op":"transpose","operands":["B"]},{"op":"transpose","operands":["%0"]}],"outputs":["%1"]})",
                       R"({"ops":[],"outputs":["B"]})");
    CHECK(canonical_key(ta.family, pair_of(ta)) == canonical_key(tb.family, pair_of(tb)));

    // A (B + B) = A B + A B is distributivity with C := B.
    auto dist = make_sub(kMatrixInputs,
                         R"({"ops":[{"op":"matmul","operands":["A","B"]},{"op":"matmul","operands":["A","C"]},{"op":"ewadd","operands":["%0","%1"]}],"outputs":["%2"]})",
                         R"({"ops":[{"op":"ewadd","operands":["B","C"]},{"op":"matmul","operands":["A","%0"]}],"outputs":["%1"]})");
    auto twice = make_sub(kMatrixInputs,
                          R"({"ops":[{"op":"matmul","operands":["A","B"]},{"op":"ewadd","operands":["%0","%0"]}],"outputs":["%1"]})",
                          R"({"ops":[{"op":"ewadd","operands":["B","B"]},{"op":"matmul","operands":["A","%0"]}],"outputs":["%1"]})");
    auto inst = instance_keys(dist.family, pair_of(dist));
    std::string key = canonical_key(twice.family, pair_of(twice));
    // Merging B and C gives matmul(A,B) twice; the enumerator builds that
    // once, so the instance is the graph with the op shared.
    auto shared = make_sub(kMatrixInputs,
                           R"({"ops":[{"op":"matmul","operands":["A","B"]},{"op":"matmul","operands":["A","B"]},{"op":"ewadd","operands":["%0","%1"]}],"outputs":["%2"]})",
                           R"({"ops":[{"op":"ewadd","operands":["B","B"]},{"op":"matmul","operands":["A","%0"]}],"outputs":["%1"]})");
    CHECK(std::find(inst.begin(), inst.end(), canonical_key(shared.family, pair_of(shared))) != inst.end());
    CHECK(key == canonical_key(shared.family, pair_of(shared)));  // rendering sees no sharing
    CHECK(instance_keys(twice.family, pair_of(twice)).empty());  // nothing left to merge
}

TEST_CASE("prune: an output computed the same way on both sides") {
    auto s = make_sub(kMatrixInputs,
                      R"({"ops":[{"op":"transpose","operands":["A"]},{"op":"transpose","operands":["%0"]},{"op":"relu","operands":["B"]}],"outputs":["%1","%2"]})",
                      R"({"ops":[{"op":"relu","operands":["B"]}],"outputs":["A","%0"]})", "[[0,0],[1,1]]");
    CHECK(has_identical_output(s.family, pair_of(s)));
    auto one = make_sub(kMatrixInputs, R"({"ops":[{"op":"relu","operands":["B"]}],"outputs":["%0"]})",
                        R"({"ops":[{"op":"relu","operands":["B"]}],"outputs":["%0"]})");
    CHECK_FALSE(has_identical_output(one.family, pair_of(one)));  // a single output is the whole pair
}
