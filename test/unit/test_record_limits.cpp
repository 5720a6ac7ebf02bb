// Range checks on programs read back from a tuning log (records/record_limits.h):
// a record whose factors, annotations or nesting no search writes is skipped
// with a warning naming file:line, and the good records of the same log still load.
#include "records/record_limits.h"
#include "records/tuning_log.h"
#include "record_test_support.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

using namespace ansor;
using ansor_test::cpu;
using ansor_test::result;
using ansor_test::samples;
using ansor_test::TempLog;
using ansor_test::Warnings;

namespace {

// scaled(x) = 2 * in(x) over `n` points: one Func with one loop, v0.
ansor_test::Pipe scaled(int n) {
    Halide::ImageParam in(Halide::Float(32), 1, "in");
    in.dim(0).set_estimate(0, n);
    Halide::Var x("x");
    Halide::Func f("scaled");
    f(x) = in(x) * 2.f;
    f.set_estimate(x, 0, n);
    return {{f}};
}

// The canonical name of the Func the steps below act on (set per test).
std::string func;

nlohmann::json split(const std::string &loop, std::vector<int64_t> factors) {
    return {{"kind", "split"}, {"func", func}, {"stage", 0}, {"loop", loop}, {"factors", factors}};
}

nlohmann::json annotate(const std::string &kind, const std::string &loop) {
    return {{"kind", kind}, {"func", func}, {"stage", 0}, {"loop", loop}};
}

// `count` splits by 1, each of the previous inner piece: one loop deeper each.
nlohmann::json chained_splits(int count) {
    nlohmann::json steps = nlohmann::json::array();
    std::string loop = "v0";
    for (int i = 0; i < count; i++) {
        steps.push_back(split(loop, {1}));
        loop += "_1";
    }
    return steps;
}

struct Log {
    TempLog file;
    Warnings warnings;
    TuningLog log{file.path, warnings.sink()};
    const PipelineDAG &dag;
    PipelineKey key;
    State any;
    std::string name;  // the Func's name in this process (Halide may have added a suffix)
    explicit Log(const PipelineDAG &d) : dag(d), key(make_pipeline_key(d)), any(samples(d, 1, 3)[0]) {
        const std::optional<std::string> canonical = key.names.canonical_func(d.outputs()[0].name());
        REQUIRE(canonical);
        func = *canonical;
        name = d.outputs()[0].name();
    }
    void append(const nlohmann::json &steps, double ms = 1.0) {
        TuningRecord r = make_record(key, cpu(), any, result(ms), {});
        r.steps = steps;
        log.append(r);
    }
    // The warning that names line `line`, or "".
    std::string warning_at(int line) const {
        for (const std::string &w : warnings.seen) {
            if (w.find(file.path + ":" + std::to_string(line) + ":") != std::string::npos) return w;
        }
        return "";
    }
};

}  // namespace

TEST_CASE("record limits: every program the search samples is within them and replays as State::replay does") {
    for (const ansor_test::Pipe &p : {ansor_test::make_matmul_relu(64), ansor_test::make_norm(256),
                                      ansor_test::make_blur(256, 128), ansor_test::make_padded_conv()}) {
        PipelineDAG dag(p.functions(), 2);
        for (const State &s : samples(dag, 8, 11)) {
            const LoopNest checked = replay_within_record_limits(s);
            const LoopNest plain = s.replay();
            REQUIRE(checked.funcs().size() == plain.funcs().size());
            for (size_t f = 0; f < plain.funcs().size(); f++) {
                const ModelFunc &a = checked.funcs()[f], &b = plain.funcs()[f];
                CHECK(a.name == b.name);
                REQUIRE(a.stages.size() == b.stages.size());
                for (size_t st = 0; st < a.stages.size(); st++) {
                    REQUIRE(a.stages[st].loops.size() == b.stages[st].loops.size());
                    for (size_t l = 0; l < a.stages[st].loops.size(); l++) {
                        CHECK(a.stages[st].loops[l].name == b.stages[st].loops[l].name);
                        CHECK(a.stages[st].loops[l].extent == b.stages[st].loops[l].extent);
                        CHECK(a.stages[st].loops[l].annotation == b.stages[st].loops[l].annotation);
                    }
                }
            }
        }
    }
}

TEST_CASE("records: a split factor far beyond its loop is skipped with a warning naming file:line") {
    const ansor_test::Pipe p = scaled(1000);
    PipelineDAG dag(p.functions(), 2);
    Log l(dag);
    l.append(nlohmann::json::array({split("v0", {8}), annotate("vectorize", "v0_1")}), 2.0);  // line 1: good
    l.append(nlohmann::json::array({split("v0", {1000000000})}), 0.1);                         // 2: 1e9 fits 32 bits
    l.append(nlohmann::json::array({split("v0", {4, 5000})}), 0.1);                            // 3: 20000 of 1000
    l.append(nlohmann::json::array({split("v0", {0})}), 0.1);                                  // 4: unfilled
    l.append(nlohmann::json::array({split("v0", {1024}), annotate("unroll", "v0_1")}), 3.0);   // 5: good (a tail)
    const std::vector<TuningRecord> records = l.log.load(dag, cpu());
    REQUIRE(records.size() == 2);
    CHECK(records[0].line == 1);
    CHECK(records[1].line == 5);
    CHECK(l.warnings.seen.size() == 3);
    CHECK(l.warning_at(2).find("skipped a record out of range: split of 'x' in '" + l.name +
                               "' by [1000000000] covers more than 2064 iterations of a loop of 1000") !=
          std::string::npos);
    CHECK(l.warning_at(3).find("by [4, 5000] covers more than 2064") != std::string::npos);
    CHECK(l.warning_at(4).find("a factor below 1") != std::string::npos);
    CHECK(l.log.best(dag, cpu())->line == 1);
}

TEST_CASE("records: vectors, unrolls and auto-unroll steps beyond their bounds are skipped") {
    const ansor_test::Pipe p = scaled(100000);
    PipelineDAG dag(p.functions(), 2);
    Log l(dag);
    l.append(nlohmann::json::array({split("v0", {64}), annotate("vectorize", "v0_1")}), 2.0);
    l.append(nlohmann::json::array({split("v0", {8192}), annotate("vectorize", "v0_1")}), 0.1);
    l.append(nlohmann::json::array({split("v0", {65536}), annotate("unroll", "v0_1")}), 0.1);
    l.append(nlohmann::json::array({{{"kind", "auto_unroll"}, {"func", func}, {"stage", 0}, {"max_step", 1 << 30}}}), 0.1);
    const std::vector<TuningRecord> records = l.log.load(dag, cpu());
    REQUIRE(records.size() == 1);
    CHECK(records[0].line == 1);
    CHECK(l.warning_at(2).find("vectorize of 'x_1' in '" + l.name + "', a loop of 8192 (at most 4096)") !=
          std::string::npos);
    CHECK(l.warning_at(3).find("unroll of 'x_1' in '" + l.name + "', a loop of 65536 (at most 4096)") !=
          std::string::npos);
    CHECK(l.warning_at(4).find("auto_unroll of '" + l.name + "' with max_step 1073741824") != std::string::npos);
}

TEST_CASE("records: absurd loop nesting is skipped with a warning naming file:line, never replayed") {
    const ansor_test::Pipe p = scaled(1000);
    PipelineDAG dag(p.functions(), 2);
    Log l(dag);
    l.append(chained_splits(8), 2.0);     // line 1: deep but sane
    l.append(chained_splits(200), 0.1);   // 2: 201 loops
    l.append(chained_splits(3000), 0.1);  // 3: thousands of splits
    l.append(nlohmann::json::array({split("v0", {10})}), 3.0);
    const std::vector<TuningRecord> records = l.log.load(dag, cpu());
    REQUIRE(records.size() == 2);
    CHECK(records[0].line == 1);
    CHECK(records[1].line == 4);
    CHECK(l.warning_at(2).find("skipped a record out of range: split of 'x") != std::string::npos);
    CHECK(l.warning_at(2).find("nests more than 128 loops") != std::string::npos);
    CHECK(l.warning_at(3).find("skipped a record out of range: '" + func + "' has 3000 steps (at most 256)") !=
          std::string::npos);
}
