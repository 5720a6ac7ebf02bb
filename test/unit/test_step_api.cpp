// What a step kind owns (state/steps.h): renaming, provenance, structure
// keys, placements; and the intermediate naming of the loop-nest model.
#include "annotate/random_annotator.h"
#include "records/canonical_steps.h"
#include "records/pipeline_key.h"
#include "sketch/sketch_generator.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

#include <random>

using namespace ansor;

namespace {

Halide::Target cpu() {
    return Halide::Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");
}

std::vector<State> sampled(const PipelineDAG &dag, int n, uint64_t seed) {
    auto sketches = generate_sketches({dag, cpu()});
    AnnotationOptions ao;
    ao.parallelism = 2;
    RandomAnnotator annotator(dag, cpu(), ao);
    std::mt19937_64 rng(seed);
    std::vector<State> out;
    for (int i = 0; (int)out.size() < n && i < 20 * n; i++) {
        try {
            out.push_back(annotator.annotate(sketches[i % sketches.size()], rng));
        } catch (const InvalidState &) {
        }
    }
    REQUIRE(!out.empty());
    return out;
}

// Appends a mark to every Func name and to every loop name it has not been
// told about; records what steps report deriving.
class MarkingRenamer : public Renamer {
public:
    std::string func(const std::string &name) const override { return name + "'"; }
    std::string loop(const std::string &func, const std::string &name) const override {
        auto it = derived.find({func, name});
        return it == derived.end() ? name + "'" : it->second;
    }
    void derive_loop(const std::string &func, const std::string &from, const std::string &to) override {
        derived[{func, from}] = to;
    }
    void derive_func(const std::string &origin, const std::string &created,
                     const std::vector<std::pair<std::string, std::string>> &new_vars) override {
        created_funcs.push_back({origin, created});
        for (const auto &v : new_vars) derived[{created, v.first}] = v.second;
    }
    std::map<std::pair<std::string, std::string>, std::string> derived;
    std::vector<std::pair<std::string, std::string>> created_funcs;
};

}  // namespace

TEST_CASE("step API: renaming sampled programs to canonical names and back gives the same JSON") {
    // Matmul samples cache writes, the norm rfactors with preserved RVars.
    std::vector<ansor_test::Pipe> pipes = {ansor_test::make_matmul(64), ansor_test::make_norm(256)};
    int cache_writes = 0, rfactors = 0, splits = 0;
    for (const auto &p : pipes) {
        PipelineDAG dag(p.functions(), 2);
        PipelineKey key = make_pipeline_key(dag);
        for (const State &s : sampled(dag, 16, 5)) {
            const std::string dumped = s.to_json().dump();
            cache_writes += dumped.find("cache_write") != std::string::npos;
            rfactors += dumped.find("\"rfactor\"") != std::string::npos;
            splits += dumped.find("\"split\"") != std::string::npos;
            nlohmann::json canon = canonical_steps(s, key.names);
            CAPTURE(canon.dump());
            CHECK(canon.dump() != dumped);  // Func names differ at least
            State back = state_from_canonical_steps(dag, key.names, canon);
            CHECK(back.to_json() == s.to_json());
        }
    }
    CHECK(cache_writes > 0);
    CHECK(rfactors > 0);
    CHECK(splits > 0);
}

TEST_CASE("step API: steps report the names they derive while being renamed") {
    MarkingRenamer r;
    StepPtr split = std::make_shared<SplitStep>("f", 0, "x", std::vector<int64_t>{4, 8})->renamed(r);
    CHECK(split->to_json() == SplitStep("f'", 0, "x'", {4, 8}).to_json());
    CHECK(r.loop("f", "x_0") == "x'_0");
    CHECK(r.loop("f", "x_2") == "x'_2");

    StepPtr fuse = std::make_shared<FuseStep>("f", 0, std::vector<std::string>{"x_0", "y"})->renamed(r);
    CHECK(fuse->to_json() == FuseStep("f'", 0, {"x'_0", "y'"}).to_json());
    CHECK(r.loop("f", "x_0_y_f") == "x'_0_y'_f");

    // An rfactor Var named after its RVar follows the RVar's new name; the
    // intermediate is reported with its Vars.
    RfactorStep rf("g", 1, {{"r", "r_v"}, {"k", "w"}});
    StepPtr rf2 = rf.renamed(r);
    CHECK(rf2->to_json() == RfactorStep("g'", 1, {{"r'", "r'_v"}, {"k'", "w"}}).to_json());
    REQUIRE(r.created_funcs.size() == 1);
    CHECK(r.created_funcs[0] == std::make_pair(std::string("g"), intermediate_name("g")));
    CHECK(r.loop(intermediate_name("g"), "r_v") == "r'_v");

    StepPtr cw = CacheWriteStep("h").renamed(r);
    CHECK(cw->kind() == "cache_write");
    CHECK(cw->func() == "h'");
    CHECK(r.created_funcs.back() == std::make_pair(std::string("h"), intermediate_name("h")));

    StepPtr at = ComputeLocationStep("p", Location{LocationKind::At, "f", 0, "x_0_y_f"}).renamed(r);
    REQUIRE(at->placement());
    CHECK(*at->placement() == Location{LocationKind::At, "f'", 0, "x'_0_y'_f"});
}

TEST_CASE("step API: each step kind knows who writes it, its structure and its placement") {
    const Location root{}, inl{LocationKind::Inline, "", 0, ""}, at{LocationKind::At, "c", 0, "x"};
    struct Case {
        StepPtr step;
        StepOrigin origin;
        std::string structure;
    };
    std::vector<Case> cases = {
        {std::make_shared<SplitStep>("f", 0, "x", std::vector<int64_t>{8}), StepOrigin::Annotation, ""},
        {std::make_shared<SplitStep>("f", 0, "x", std::vector<int64_t>{4, 8}), StepOrigin::Sketch, ""},
        {std::make_shared<SplitStep>("f", 0, "x", std::vector<int64_t>{}), StepOrigin::Sketch, ""},
        {std::make_shared<ReorderStep>("f", 0, std::vector<std::string>{"y", "x"}), StepOrigin::Sketch, ""},
        {std::make_shared<FuseStep>("f", 0, std::vector<std::string>{"y", "x"}), StepOrigin::Annotation, ""},
        {std::make_shared<AnnotateStep>("f", 0, "x", Annotation::Parallel), StepOrigin::Annotation, ""},
        {std::make_shared<AnnotateStep>("f", 0, "x", Annotation::Vectorize), StepOrigin::Annotation, ""},
        {std::make_shared<AnnotateStep>("f", 0, "x", Annotation::Unroll), StepOrigin::Annotation, ""},
        {std::make_shared<AutoUnrollStep>("f", 0, 16), StepOrigin::Annotation, ""},
        {std::make_shared<ComputeLocationStep>("f", root), StepOrigin::Sketch, "compute_root f;"},
        {std::make_shared<ComputeLocationStep>("f", inl), StepOrigin::Sketch, "compute_inline f;"},
        {std::make_shared<ComputeLocationStep>("f", at), StepOrigin::Sketch, "compute_at f c;"},
        {std::make_shared<RfactorStep>("f", 1, std::vector<std::pair<std::string, std::string>>{{"r", "r_v"}}),
         StepOrigin::Sketch, "rfactor f;"},
        {std::make_shared<CacheWriteStep>("f"), StepOrigin::Sketch, "cache_write f;"},
    };
    for (const Case &c : cases) {
        CAPTURE(c.step->to_json().dump());
        CHECK(c.step->origin() == c.origin);
        CHECK(c.step->structure_key() == c.structure);
        CHECK((c.step->placement() != nullptr) == (c.step->kind().rfind("compute_", 0) == 0));
        // Parsing keeps what a kind owns.
        StepPtr parsed = step_from_json(c.step->to_json());
        CHECK(parsed->origin() == c.origin);
        CHECK(parsed->structure_key() == c.structure);
    }
    CHECK(*cases[11].step->placement() == at);
    CHECK(cases[1].step->as<SplitStep>()->factors == std::vector<int64_t>{4, 8});
    CHECK(cases[1].step->as<FuseStep>() == nullptr);
    CHECK(cases.back().step->as<RfactorStep>() != nullptr);  // a cache write is an rfactor
}

TEST_CASE("step API: intermediate names map back to their origin, and the model knows the intermediate") {
    CHECK(intermediate_origin(intermediate_name("matmul$1")) == std::optional<std::string>("matmul$1"));
    CHECK(intermediate_origin("matmul") == std::nullopt);
    CHECK(intermediate_origin(intermediate_name("")) == std::nullopt);

    auto p = ansor_test::make_matmul(64);
    PipelineDAG dag(p.functions(), 2);
    const std::string mm = ansor_test::resolve(dag, "matmul");
    State s(dag);
    CHECK(s.replay().intermediate_of(mm) == nullptr);
    s.add(std::make_shared<CacheWriteStep>(mm));
    LoopNest m = s.replay();
    const ModelFunc *intm = m.intermediate_of(mm);
    REQUIRE(intm != nullptr);
    CHECK(intm->name == intermediate_name(mm));
    CHECK(intm->created_from == mm);
    CHECK(intm->dag_index == -1);
}
