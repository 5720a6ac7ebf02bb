// Enumeration is deterministic and finds the expected candidates.
#include "enumerate.h"
#include "generate.h"
#include "pattern_graph.h"

#include <doctest/doctest.h>

using namespace taso;

TEST_CASE("enumerate: counts are deterministic and pinned") {
    auto fam = default_families().at(0);  // matrix
    EnumerationResult a = Enumerator(fam).run(2), b = Enumerator(fam).run(2);
    CHECK(a.graphs == b.graphs);
    CHECK(a.candidates.size() == b.candidates.size());
    // Pinned: a change to the operator set, the rules or the fingerprint
    // shows up here (update docs/taso.md with the new figures).
    CHECK(a.graphs == 682);
    CHECK(a.candidates.size() == 95);
    for (size_t i = 0; i < a.candidates.size(); i++)
        CHECK(render(fam.family, a.candidates[i].larger, a.candidates[i].larger.outputs.at(0)) ==
              render(fam.family, b.candidates[i].larger, b.candidates[i].larger.outputs.at(0)));
}

TEST_CASE("enumerate: distributivity is a candidate pair, and graphs are well-shaped") {
    auto fam = default_families().at(0);
    EnumerationResult r = Enumerator(fam).run(3);
    bool found = false;
    for (const CandidatePair &c : r.candidates) {
        infer_graph(fam.family, c.smaller);  // throws if ill-shaped
        infer_graph(fam.family, c.larger);
        if (c.smaller.outputs.size() == 1 &&
            render(fam.family, c.smaller, c.smaller.outputs[0]) == "matmul(A,ewadd(B,C))" &&
            render(fam.family, c.larger, c.larger.outputs[0]) == "ewadd(matmul(A,B),matmul(A,C))")
            found = true;
    }
    CHECK(found);
}

TEST_CASE("enumerate: the operator limit is checked") {
    auto fam = default_families().at(0);
    CHECK_THROWS_WITH_AS(Enumerator(fam).run(5), doctest::Contains("max ops"), std::runtime_error);
}

TEST_CASE("generate: the pipeline's counts on two-operator graphs are pinned") {
    GenerateOptions opts;
    opts.max_ops = 2;
    auto r = generate_substitutions(opts);
    REQUIRE(r.per_family.size() == 5);
    const GenerateCounts &m = r.per_family[0].second, &c = r.per_family[1].second;
    const GenerateCounts &d = r.per_family[2].second, &cb = r.per_family[3].second;
    const GenerateCounts &res = r.per_family[4].second;
    CHECK(r.per_family[0].first == "matrix");
    CHECK(m.graphs == 682);
    CHECK(m.candidates == 95);
    CHECK(m.pruned_weights == 0);  // B and C are tensors: nothing is weights only
    CHECK(m.pruned_renaming == 54);
    CHECK(m.verified == 38);
    CHECK(m.rejected == 3);
    CHECK(m.kept() == 35);
    CHECK(c.graphs == 1304);
    CHECK(c.candidates == 378);
    CHECK(c.pruned_weights == 30);
    CHECK(c.pruned_weights + c.pruned_renaming + c.pruned_common == 250);
    CHECK(c.verified == 105);
    CHECK(c.kept() == 105);
    CHECK(r.per_family[2].first == "dense_bias");
    CHECK(d.graphs == 141);
    CHECK(d.candidates == 10);
    CHECK(d.pruned_weights == 6);
    CHECK(d.verified == 3);
    CHECK(r.per_family[3].first == "conv_bias");
    CHECK(cb.graphs == 335);
    CHECK(cb.candidates == 22);
    CHECK(cb.pruned_weights == 10);
    CHECK(cb.verified == 8);
    CHECK(r.per_family[4].first == "residual");
    CHECK(res.graphs == 204);
    CHECK(res.candidates == 34);
    CHECK(res.verified == 27);
    CHECK(res.rejected == 5);
    // Every candidate is accounted for exactly once.
    for (const GenerateCounts *k : {&m, &c, &d, &cb, &res})
        CHECK(k->candidates == k->recheck_failed + k->pruned_weights + k->pruned_renaming + k->pruned_common +
                                   k->verified + k->rejected);
    CHECK((int64_t)r.kept.size() == r.total.kept());
}
