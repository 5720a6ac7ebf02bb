// Tuning records: the pipeline key, name-independent steps, and the
// append-only log (docs/tuning_log.md).
#include "annotate/random_annotator.h"
#include "measure/pipeline_runner.h"
#include "records/canonical_steps.h"
#include "records/pipeline_key.h"
#include "records/tuning_log.h"
#include "record_test_support.h"
#include "sketch/sketch_generator.h"
#include "test_pipelines.h"
#include "util/errors.h"
#include "util/target.h"

#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

using namespace ansor;
using namespace Halide;
using ansor_test::cpu;
using ansor_test::result;
using ansor_test::samples;
using ansor_test::TempLog;
using ansor_test::Warnings;

namespace {

Target host() { return measurement_target(get_host_target()); }

// The matmul of test_pipelines.h with every name chosen by the caller;
// empty names leave the naming to Halide's counters.
ansor_test::Pipe named_matmul(const std::string &func, const std::string &a, const std::string &b,
                              const std::string &var, const std::string &rdom, int n = 64) {
    ImageParam A(Float(32), 2, a), B(Float(32), 2, b);
    A.dim(0).set_estimate(0, n).dim(1).set_estimate(0, n);
    B.dim(0).set_estimate(0, n).dim(1).set_estimate(0, n);
    Var x = var.empty() ? Var() : Var(var + "x"), y = var.empty() ? Var() : Var(var + "y");
    RDom k = rdom.empty() ? RDom(0, n) : RDom(0, n, rdom);
    Func C = func.empty() ? Func() : Func(func);
    C(x, y) = 0.f;
    C(x, y) += A(k, y) * B(x, k);
    C.set_estimate(x, 0, n).set_estimate(y, 0, n);
    return {{C}};
}

// Norm (rfactor sketches) with its own names.
ansor_test::Pipe named_norm(const std::string &prefix, int m = 256) {
    ImageParam in(Float(32), 3, prefix + "in");
    in.dim(0).set_estimate(0, m).dim(1).set_estimate(0, m).dim(2).set_estimate(0, 1);
    Var b(prefix + "b");
    RDom r(0, m, 0, m, prefix + "r");
    Func sq(prefix + "sumsq"), out(prefix + "norm");
    sq(b) = 0.f;
    sq(b) += in(r.x, r.y, b) * in(r.x, r.y, b);
    out(b) = sqrt(sq(b));
    out.set_estimate(b, 0, 1);
    return {{out}};
}

std::string key_of(const ansor_test::Pipe &p) {
    PipelineDAG dag(p.functions(), 2);
    return make_pipeline_key(dag).hash;
}

// Replaces every occurrence of `from` in s.
std::string replace_all(std::string s, const std::string &from, const std::string &to) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
    return s;
}

// A state's printed schedule with each Func's identifier (its name with
// '$' printed as '_') replaced by its canonical name: equal for equal
// schedules of two constructions whose Vars carry the same names.
std::string normalised_source(const State &s, const CanonicalNames &names) {
    std::vector<std::pair<std::string, std::string>> ids;
    for (const std::string &f : names.funcs()) {
        std::string id = f;
        for (char &c : id) c = std::isalnum((unsigned char)c) ? c : '_';
        ids.emplace_back(id, "F" + names.canonical_func(f)->substr(1));
    }
    // Longer identifiers first, so that "A_im_12" is not taken for "A_im_1".
    std::sort(ids.begin(), ids.end(), [](const auto &a, const auto &b) { return a.first.size() > b.first.size(); });
    std::string src = s.source();
    for (const auto &kv : ids) src = replace_all(src, kv.first, kv.second);
    return src;
}

}  // namespace

TEST_CASE("records: the pipeline key ignores names Halide or the user chose") {
    // The second construction gets Halide's "$1" suffixes; the third other names
    // throughout; the fourth leaves Vars, RDom and Func to Halide's counters.
    std::string first = key_of(named_matmul("matmul", "A", "B", "", "k"));
    CHECK(first.size() == 16);
    CHECK(first.find_first_not_of("0123456789abcdef") == std::string::npos);
    CHECK(key_of(named_matmul("matmul", "A", "B", "", "k")) == first);
    CHECK(key_of(named_matmul("gemm", "lhs", "rhs", "q", "red")) == first);
    CHECK(key_of(named_matmul("", "A", "B", "", "")) == first);
    CHECK(key_of(ansor_test::make_matmul(64)) == first);

    CHECK(key_of(named_norm("")) == key_of(named_norm("other_")));
    CHECK(key_of(ansor_test::make_blur()) == key_of(ansor_test::make_blur()));

    PipelineDAG dag(ansor_test::make_padded_conv().functions(), 2);
    PipelineKey k = make_pipeline_key(dag);
    for (const Node &n : dag.nodes()) {
        CAPTURE(n.name);
        CHECK(k.text.find(n.name) == std::string::npos);
    }
    CHECK(k.text.find('$') == std::string::npos);
    CHECK(k.outputs == std::vector<std::string>{"relu"});
}

TEST_CASE("records: the pipeline key changes with shapes, expressions and types") {
    std::string base = key_of(ansor_test::make_matmul(64));
    CHECK(key_of(ansor_test::make_matmul(32)) != base);
    CHECK(key_of(ansor_test::make_matmul_relu(64)) != base);
    CHECK(key_of(ansor_test::make_blur(256, 128)) != key_of(ansor_test::make_blur(256, 64)));

    // A different output estimate alone.
    auto moved = ansor_test::make_matmul(64);
    moved.outputs[0].set_estimate(moved.outputs[0].args()[0], 8, 64);
    CHECK(key_of(moved) != base);

    // A changed expression: B(x, k) + 1 instead of B(x, k).
    {
        ImageParam A(Float(32), 2, "A"), B(Float(32), 2, "B");
        A.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, 64);
        B.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, 64);
        Var x("x"), y("y");
        RDom k(0, 64, "k");
        Func C("matmul");
        C(x, y) = 0.f;
        C(x, y) += A(k, y) * (B(x, k) + 1.f);
        C.set_estimate(x, 0, 64).set_estimate(y, 0, 64);
        CHECK(key_of({{C}}) != base);
    }
    // Swapped operands in a call: A(y, k) instead of A(k, y).
    {
        ImageParam A(Float(32), 2, "A"), B(Float(32), 2, "B");
        A.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, 64);
        B.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, 64);
        Var x("x"), y("y");
        RDom k(0, 64, "k");
        Func C("matmul");
        C(x, y) = 0.f;
        C(x, y) += A(y, k) * B(x, k);
        C.set_estimate(x, 0, 64).set_estimate(y, 0, 64);
        CHECK(key_of({{C}}) != base);
    }
    // Another element type.
    {
        ImageParam A(Float(64), 2, "A"), B(Float(64), 2, "B");
        A.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, 64);
        B.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, 64);
        Var x("x"), y("y");
        RDom k(0, 64, "k");
        Func C("matmul");
        C(x, y) = Expr(0.0);
        C(x, y) += A(k, y) * B(x, k);
        C.set_estimate(x, 0, 64).set_estimate(y, 0, 64);
        CHECK(key_of({{C}}) != base);
    }
}

TEST_CASE("records: canonical steps carry a state to a differently named construction") {
    struct Case {
        ansor_test::Pipe a, b;
        bool same_var_names;
    };
    std::vector<Case> cases;
    // $-suffixed Func names only: the printed schedules must match but for Func names.
    cases.push_back({ansor_test::make_matmul_relu(64), ansor_test::make_matmul_relu(64), true});
    cases.push_back({named_norm(""), named_norm(""), true});
    cases.push_back({ansor_test::make_padded_conv(), ansor_test::make_padded_conv(), true});
    // Every name different, Vars and RDoms included.
    cases.push_back({named_matmul("matmul", "A", "B", "", "k"), named_matmul("", "P", "Q", "", ""), false});
    cases.push_back({named_norm(""), named_norm("z_"), false});

    int rfactors = 0, fuses = 0, compute_ats = 0;
    for (auto &c : cases) {
        PipelineDAG da(c.a.functions(), 2), db(c.b.functions(), 2);
        PipelineKey ka = make_pipeline_key(da), kb = make_pipeline_key(db);
        REQUIRE(ka.hash == kb.hash);
        bool ran = false;
        for (const State &s : samples(da, 24, 17)) {
            nlohmann::json canon = canonical_steps(s, ka.names);
            CAPTURE(canon.dump());
            std::string dumped = canon.dump();
            fuses += dumped.find("\"fuse\"") != std::string::npos;
            compute_ats += dumped.find("compute_at") != std::string::npos;
            for (const Node &n : da.nodes()) CHECK(dumped.find("\"" + n.name + "\"") == std::string::npos);

            State back = state_from_canonical_steps(db, kb.names, canon);
            REQUIRE_NOTHROW(back.replay());
            CHECK(canonical_steps(back, kb.names) == canon);
            CHECK(back.lower().size() == s.lower().size());
            // Same process, same DAG: the round trip gives the very same state.
            CHECK(state_from_canonical_steps(da, ka.names, canon).key() == s.key());
            if (c.same_var_names) CHECK(normalised_source(back, kb.names) == normalised_source(s, ka.names));
            bool factors = dumped.find("\"rfactor\"") != std::string::npos || dumped.find("cache_write") != std::string::npos;
            if (!c.same_var_names && !ran && factors) {
                // The names it was given, the rfactor intermediate's included,
                // exist in the other construction: it compiles there and
                // computes what the unscheduled pipeline does.
                ran = true;
                PipelineRunner reference(db, nullptr, host());
                reference.compile();
                reference.run();
                PipelineRunner candidate(db, &back, host());
                REQUIRE_NOTHROW(candidate.compile());
                candidate.run();
                CHECK(max_relative_error(candidate.outputs()[0], reference.outputs()[0].data()) < 1e-3);
            }
            rfactors += factors;
        }
        CHECK((c.same_var_names || ran));
    }
    // The samples exercised the steps that derive names.
    CHECK(rfactors > 0);
    CHECK(fuses > 0);
    CHECK(compute_ats > 0);
}

TEST_CASE("records: append then load gives back every record and its state") {
    TempLog log;
    Warnings w;
    TuningLog tl(log.path, w.sink());
    PipelineDAG dag(ansor_test::make_matmul_relu(64).functions(), 2);
    PipelineKey key = make_pipeline_key(dag);
    auto states = samples(dag, 8, 3);
    CHECK(tl.load(dag, cpu()).empty());  // no file yet
    for (size_t i = 0; i < states.size(); i++) {
        RecordMeta meta;
        meta.trial = (int64_t)i;
        meta.seed = 42;
        tl.append(key, cpu(), states[i], result(1.0 + i, i != 2), meta);
    }
    auto records = tl.load(dag, cpu());
    REQUIRE(records.size() == states.size());
    for (size_t i = 0; i < states.size(); i++) {
        const TuningRecord &r = records[i];
        CHECK(r.line == (int)i + 1);
        CHECK(r.pipeline == key.hash);
        CHECK(r.target == cpu().to_string());
        CHECK(r.outputs == std::vector<std::string>{"relu"});
        CHECK(r.ok == (i != 2));
        CHECK(r.error == (i != 2 ? "" : "wrong output"));
        CHECK(r.min_ms == doctest::Approx(1.0 + i));
        CHECK(r.median_ms == doctest::Approx((1.0 + i) * 1.1));
        CHECK(r.seconds == doctest::Approx(0.5));
        CHECK(r.trial == (int64_t)i);
        CHECK(r.seed == 42u);
        CHECK(r.time.size() == 20);
        REQUIRE(r.state);
        CHECK(r.state->key() == states[i].key());
        CHECK(r.state->source() == states[i].source());
    }
    // One line per record, each ending in a newline.
    std::string text = log.read();
    CHECK(std::count(text.begin(), text.end(), '\n') == (long)states.size());
    CHECK(text.back() == '\n');
    CHECK(w.seen.empty());

    // A second construction of the pipeline (names with $ suffixes) reads the same records.
    PipelineDAG again(ansor_test::make_matmul_relu(64).functions(), 2);
    auto reread = tl.load(again, cpu());
    REQUIRE(reread.size() == states.size());
    CHECK(reread[3].state->lower().size() == states[3].lower().size());
}

TEST_CASE("records: an error message of any length or bytes stays one line") {
    TempLog log;
    TuningLog tl(log.path);
    PipelineDAG dag(ansor_test::make_matmul(32).functions(), 2);
    PipelineKey key = make_pipeline_key(dag);
    MeasureResult bad = result(0, false);
    bad.error = std::string("line one\nline two \xff\xfe binary\n") + std::string(10000, 'x');
    tl.append(key, cpu(), samples(dag, 1, 1)[0], bad);
    std::string text = log.read();
    CHECK(std::count(text.begin(), text.end(), '\n') == 1);
    auto records = tl.load(dag, cpu());
    REQUIRE(records.size() == 1);
    CHECK(records[0].error.rfind("line one\nline two", 0) == 0);
    CHECK(records[0].error.size() < 2100);
}

TEST_CASE("records: a record cut short at the end is skipped with a warning, and appending resumes on a new line") {
    TempLog log;
    Warnings w;
    TuningLog tl(log.path, w.sink());
    PipelineDAG dag(ansor_test::make_matmul(32).functions(), 2);
    PipelineKey key = make_pipeline_key(dag);
    auto states = samples(dag, 4, 9);
    for (int i = 0; i < 3; i++) tl.append(key, cpu(), states[i], result(2.0 + i));
    // A writer killed halfway through its line.
    std::string whole = record_line(make_record(key, cpu(), states[3], result(0.1), {}));
    log.write_raw(whole.substr(0, whole.size() / 2));
    const std::string before = log.read();

    auto records = tl.load(dag, cpu());
    CHECK(records.size() == 3);
    REQUIRE(w.seen.size() == 1);
    CHECK(w.seen[0].find(log.path + ":4:") != std::string::npos);
    CHECK(w.seen[0].find("cut short") != std::string::npos);

    // The next record must not glue onto the cut line.
    tl.append(key, cpu(), states[3], result(0.5));
    std::string after = log.read();
    CHECK(after.compare(0, before.size(), before) == 0);
    CHECK(after[before.size()] == '\n');
    w.seen.clear();
    records = tl.load(dag, cpu());
    REQUIRE(records.size() == 4);
    CHECK(records[3].line == 5);
    CHECK(records[3].min_ms == doctest::Approx(0.5));
    // The cut line, now in the middle, is still recognised as cut short.
    REQUIRE(w.seen.size() == 1);
    CHECK(w.seen[0].find(log.path + ":4:") != std::string::npos);

    // Any bytes at all in an unterminated last line only warn.
    log.write_raw("\x01\x02garbage");
    w.seen.clear();
    CHECK(tl.load(dag, cpu()).size() == 4);
    CHECK(w.seen.size() == 2);
}

TEST_CASE("records: a JSON line that is not a valid record is an error naming file and line") {
    PipelineDAG dag(ansor_test::make_matmul(32).functions(), 2);
    PipelineKey key = make_pipeline_key(dag);
    State s = samples(dag, 1, 5)[0];
    auto expect_error = [&](const std::string &bad_line, int line, const std::string &why) {
        TempLog log;
        TuningLog tl(log.path);
        tl.append(key, cpu(), s, result(1));
        tl.append(key, cpu(), s, result(2));
        log.write_raw(bad_line + "\n");
        tl.append(key, cpu(), s, result(3));
        std::string message;
        try {
            tl.load(dag, cpu());
        } catch (const UserError &e) {
            message = e.what();
        }
        CAPTURE(message);
        CHECK(message.find(log.path + ":" + std::to_string(line) + ":") != std::string::npos);
        CHECK(message.find(why) != std::string::npos);
        // The summary's reader fails the same way.
        CHECK_THROWS_AS(tl.read_all(), UserError);
    };
    expect_error("{\"version\": 1, \"pipeline\": \"x\"}", 3, "missing field 'target'");
    nlohmann::json wrong = nlohmann::json::parse(record_line(make_record(key, cpu(), s, result(1), {})));
    wrong["ok"] = "yes";
    expect_error(wrong.dump(), 3, "field 'ok'");
    wrong["ok"] = true;
    wrong.erase("host");
    expect_error(wrong.dump(), 3, "missing field 'host'");
    wrong["host"] = "h";
    wrong["threads"] = "two";
    expect_error(wrong.dump(), 3, "field 'threads'");
    wrong["threads"] = 2;
    wrong["version"] = 0;
    expect_error(wrong.dump(), 3, "version 0");
    expect_error("[1, 2, 3]", 3, "JSON object");
}

TEST_CASE("records: a line that is not JSON, or a newer record version, is skipped with a warning") {
    PipelineDAG dag(ansor_test::make_matmul(32).functions(), 2);
    PipelineKey key = make_pipeline_key(dag);
    State s = samples(dag, 1, 5)[0];
    TempLog log;
    Warnings w;
    TuningLog tl(log.path, w.sink());
    tl.append(key, cpu(), s, result(1));
    const size_t offset = log.read().size();
    log.write_raw("this is not json\n");
    nlohmann::json newer = nlohmann::json::parse(record_line(make_record(key, cpu(), s, result(0.1), {})));
    newer["version"] = 99;
    log.write_raw(newer.dump() + "\n");
    tl.append(key, cpu(), s, result(3));
    auto records = tl.load(dag, cpu());
    REQUIRE(records.size() == 2);
    CHECK(records[1].line == 4);
    REQUIRE(w.seen.size() == 2);
    CHECK(w.seen[0].find(log.path + ":2:") != std::string::npos);
    CHECK(w.seen[0].find("byte offset " + std::to_string(offset)) != std::string::npos);
    CHECK(w.seen[0].find("not JSON") != std::string::npos);
    CHECK(w.seen[1].find("1 record(s) of a newer format (version up to 99") != std::string::npos);
    CHECK(w.seen[1].find("line 3") != std::string::npos);
    CHECK(tl.best(dag, cpu())->min_ms == 1);
}

TEST_CASE("records: records of other pipelines are ignored, of other targets reported") {
    TempLog log;
    Warnings w;
    TuningLog tl(log.path, w.sink());
    PipelineDAG mm(ansor_test::make_matmul(32).functions(), 2);
    PipelineDAG blur(ansor_test::make_blur(64, 32).functions(), 2);
    PipelineKey kmm = make_pipeline_key(mm), kblur = make_pipeline_key(blur);
    Target other("x86-64-linux-avx-avx2-f16c-fma-sse41");
    auto smm = samples(mm, 3, 2), sblur = samples(blur, 3, 2);
    for (int i = 0; i < 3; i++) {
        tl.append(kblur, cpu(), sblur[i], result(0.1));
        tl.append(kmm, cpu(), smm[i], result(5.0 + i));
        tl.append(kmm, other, smm[i], result(0.2));
    }
    auto records = tl.load(mm, cpu());
    REQUIRE(records.size() == 3);
    for (const auto &r : records) {
        CHECK(r.pipeline == kmm.hash);
        CHECK(r.min_ms >= 5.0);
    }
    // The matmul's records on the other target are reported, never applied.
    REQUIRE(w.seen.size() == 1);
    CHECK(w.seen[0].find("3 record(s) of pipeline " + kmm.hash) != std::string::npos);
    CHECK(w.seen[0].find("3 with another target (" + other.to_string() + "; this run " + cpu().to_string() + ")") !=
          std::string::npos);
    CHECK(tl.load(mm, other).size() == 3);
    CHECK(tl.load(blur, cpu()).size() == 3);
    CHECK(tl.load(blur, other).empty());
    CHECK(tl.read_all().size() == 9);
    w.seen.clear();
    // Another pipeline's records are not this pipeline's business.
    CHECK(tl.load(blur, cpu()).size() == 3);
    CHECK(w.seen.empty());
}

TEST_CASE("records: a record whose steps no longer fit is skipped with a warning") {
    TempLog log;
    Warnings w;
    TuningLog tl(log.path, w.sink());
    PipelineDAG dag(ansor_test::make_matmul(32).functions(), 2);
    PipelineKey key = make_pipeline_key(dag);
    State s = samples(dag, 1, 4)[0];
    tl.append(key, cpu(), s, result(1));
    TuningRecord bad = make_record(key, cpu(), s, result(0.5), {});
    bad.steps = nlohmann::json::array({{{"kind", "split"}, {"func", "f9"}, {"stage", 0}, {"loop", "v0"}, {"factors", {4}}}});
    tl.append(bad);
    bad.steps = nlohmann::json::array({{{"kind", "no_such_step"}, {"func", "f0"}}});
    tl.append(bad);
    bad.steps = nlohmann::json::array({{{"kind", "parallel"}, {"func", "f0"}, {"stage", 0}, {"loop", "v7_0"}}});
    tl.append(bad);
    auto records = tl.load(dag, cpu());
    REQUIRE(records.size() == 1);
    CHECK(records[0].line == 1);
    REQUIRE(w.seen.size() == 1);
    CHECK(w.seen[0].find("3 record(s)") != std::string::npos);
    CHECK(w.seen[0].find(log.path + ":2:") != std::string::npos);
    auto best = tl.best(dag, cpu());
    REQUIRE(best);
    CHECK(best->line == 1);
}

TEST_CASE("records: best is the fastest success, ties to the earliest line, the same every time") {
    TempLog log;
    TuningLog tl(log.path);
    PipelineDAG dag(ansor_test::make_matmul_relu(64).functions(), 2);
    PipelineKey key = make_pipeline_key(dag);
    auto states = samples(dag, 5, 21);
    REQUIRE(states.size() == 5);
    const double ms[] = {3.0, 1.0, 2.0, 1.0, 0.5};
    for (int i = 0; i < 5; i++) tl.append(key, cpu(), states[i], result(ms[i], i != 4));  // the 0.5 ms one failed
    MeasureResult nan = result(std::nan(""));
    tl.append(key, cpu(), states[0], nan);  // a time that is not finite never wins

    auto best = tl.best(dag, cpu());
    REQUIRE(best);
    CHECK(best->line == 2);
    CHECK(best->min_ms == 1.0);
    CHECK(best->state->key() == states[1].key());
    // Deterministic: the same log gives the identical schedule source, also
    // for a second construction of the pipeline.
    CHECK(tl.best(dag, cpu())->state->source() == best->state->source());
    PipelineDAG again(ansor_test::make_matmul_relu(64).functions(), 2);
    auto from_again = tl.best(again, cpu());
    REQUIRE(from_again);
    CHECK(from_again->state->source() == TuningLog(log.path).best(again, cpu())->state->source());
    CHECK(normalised_source(*from_again->state, make_pipeline_key(again).names) ==
          normalised_source(*best->state, key.names));

    CHECK_FALSE(best_record({}));

    // Seeds for a resumed search: fastest first, each program once.
    tl.append(key, cpu(), states[2], result(0.9));  // states[2] again, now faster
    auto seeds = fastest_records(tl.load(dag, cpu()), 3);
    REQUIRE(seeds.size() == 3);
    CHECK(seeds[0].min_ms == 0.9);
    CHECK(seeds[0].line == 7);
    CHECK(seeds[1].line == 2);
    CHECK(seeds[2].line == 4);
    CHECK(fastest_records(tl.load(dag, cpu()), 100).size() == 4);  // 0, 1, 2, 3 (2 once); the failure never
}

TEST_CASE("records: appending never rewrites what the log holds") {
    TempLog log;
    // A log that already holds something, even text that is not ours.
    log.write_raw("{\"version\":1,\"pipeline\":\"0000000000000000\",\"target\":\"t\",\"ok\":false,\"error\":\"\","
                  "\"min_ms\":0,\"median_ms\":0,\"seconds\":0,\"steps\":[]}\n");
    const std::string before = log.read();
    PipelineDAG dag(ansor_test::make_matmul(32).functions(), 2);
    PipelineKey key = make_pipeline_key(dag);
    TuningLog tl(log.path);
    auto states = samples(dag, 3, 8);
    std::string previous = before;
    for (const State &s : states) {
        tl.append(key, cpu(), s, result(1));
        std::string now = log.read();
        CHECK(now.size() > previous.size());
        CHECK(now.compare(0, previous.size(), previous) == 0);
        previous = now;
    }
    CHECK(tl.load(dag, cpu()).size() == states.size());
    CHECK(tl.read_all().size() == states.size() + 1);
}

TEST_CASE("records: an unwritable log is a clear error") {
    TuningLog tl("/nonexistent-dir/for/ansor/log.jsonl");
    PipelineDAG dag(ansor_test::make_matmul(32).functions(), 2);
    PipelineKey key = make_pipeline_key(dag);
    CHECK(tl.load(dag, cpu()).empty());
    try {
        tl.append(key, cpu(), samples(dag, 1, 1)[0], result(1));
        FAIL("append should throw");
    } catch (const UserError &e) {
        CHECK(std::string(e.what()).find("/nonexistent-dir/for/ansor/log.jsonl") != std::string::npos);
    }
}

TEST_CASE("records: a record whose time cannot be a measurement is skipped with a warning, never applied") {
    PipelineDAG dag(ansor_test::make_matmul(32).functions(), 2);
    PipelineKey key = make_pipeline_key(dag);
    std::vector<State> states = samples(dag, 4, 9);
    REQUIRE(states.size() == 4);
    TempLog log;
    Warnings w;
    TuningLog tl(log.path, w.sink());
    tl.append(key, cpu(), states[0], result(2.0));
    // Forged by hand: a negative time, a zero time, a median below the minimum.
    auto forged = [&](const State &s, double min_ms, double median_ms) {
        nlohmann::json j = nlohmann::json::parse(record_line(make_record(key, cpu(), s, result(1.0), {})));
        j["min_ms"] = min_ms;
        j["median_ms"] = median_ms;
        log.write_raw(j.dump() + "\n");
    };
    forged(states[1], -1, -1);
    forged(states[2], 0, 0);
    forged(states[3], 0.5, 0.25);
    auto records = tl.load(dag, cpu());
    REQUIRE(records.size() == 1);
    CHECK(records[0].min_ms == 2.0);
    REQUIRE(w.seen.size() == 3);
    CHECK(w.seen[0].find(log.path + ":2: skipped a record whose min_ms -1 is not a positive finite time") !=
          std::string::npos);
    CHECK(w.seen[1].find(log.path + ":3:") != std::string::npos);
    CHECK(w.seen[2].find(log.path + ":4:") != std::string::npos);
    CHECK(w.seen[2].find("median_ms 0.25") != std::string::npos);
    CHECK(tl.best(dag, cpu())->min_ms == 2.0);
    // A failed record's times are never read: it loads as the failure it is.
    MeasureResult failed = result(-1, false);
    CHECK(implausible_result(failed).empty());
}
