// Tuning logs that survive a killed writer, are shared by several writers,
// and apply only records measured under this run's conditions
// (docs/tuning_log.md: "The record key", "Guarantees").
#include "record_test_support.h"
#include "records/canonical_steps.h"
#include "records/pipeline_key.h"
#include "records/tuning_log.h"
#include "search/tuning_session.h"
#include "test_pipelines.h"
#include "util/errors.h"

#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <set>

using namespace ansor;
using ansor_test::cpu;
using ansor_test::result;
using ansor_test::samples;
using ansor_test::TempLog;
using ansor_test::Warnings;

namespace {

// A record of `state` with the given trial and time, made before any fork
// so that the writer processes only serialise and append.
TuningRecord record_of(const PipelineKey &key, const State &state, int64_t trial, double ms, int threads = 2) {
    RecordMeta meta;
    meta.trial = trial;
    meta.threads = threads;
    return make_record(key, cpu(), state, result(ms), meta);
}

// A long failure message makes lines longer than a pipe's atomic write, so
// that unserialised appenders could interleave.
TuningRecord long_failure(const PipelineKey &key, const State &state, int64_t trial, uint64_t writer) {
    MeasureResult failed = result(0, false);
    failed.error = std::string(1900, (char)('a' + writer));
    RecordMeta meta;
    meta.trial = trial;
    meta.seed = writer;
    return make_record(key, cpu(), state, failed, meta);
}

// Reads every int the writer sent before its end of the pipe closed.
std::vector<int64_t> drain(int fd) {
    std::vector<int64_t> out;
    int64_t v;
    while (::read(fd, &v, sizeof(v)) == (ssize_t)sizeof(v)) out.push_back(v);
    return out;
}

}  // namespace

TEST_CASE("tuning log: a garbage or NUL-padded tail is skipped with its offset, and the next append starts a clean line") {
    PipelineDAG dag(ansor_test::make_matmul(32).functions(), 2);
    PipelineKey key = make_pipeline_key(dag);
    auto states = samples(dag, 4, 11);
    TempLog log;
    Warnings w;
    TuningLog tl(log.path, w.sink());
    tl.append(record_of(key, states[0], 0, 3.0));
    tl.append(record_of(key, states[1], 1, 2.0));

    // A writer killed mid-record, then NUL padding (what a crash can leave
    // where the file grew but its data never reached the disk).
    const size_t cut_at = log.read().size();
    const std::string whole = record_line(record_of(key, states[2], 2, 0.1));
    log.write_raw(whole.substr(0, whole.size() / 3) + std::string(64, '\0'));
    const std::string before = log.read();

    CHECK(tl.load(dag, cpu()).size() == 2);
    REQUIRE(w.seen.size() == 1);
    CHECK(w.seen[0].find(log.path + ":3:") != std::string::npos);
    CHECK(w.seen[0].find("byte offset " + std::to_string(cut_at)) != std::string::npos);

    // The next append: nothing before it changes, it starts on a new line.
    tl.append(record_of(key, states[3], 3, 1.0));
    const std::string after = log.read();
    CHECK(after.compare(0, before.size(), before) == 0);
    CHECK(after[before.size()] == '\n');

    // The garbage is now a middle line: skipped with the same warning, and
    // every record after it loads; the new one is the best.
    w.seen.clear();
    auto records = tl.load(dag, cpu());
    REQUIRE(records.size() == 3);
    CHECK(records[2].line == 4);
    CHECK(records[2].trial == 3);
    CHECK(records[2].state->key() == states[3].key());
    REQUIRE(w.seen.size() == 1);
    CHECK(w.seen[0].find("byte offset " + std::to_string(cut_at)) != std::string::npos);
    CHECK(tl.best(dag, cpu())->trial == 3);

    // A tail of NUL bytes alone.
    const size_t nul_at = log.read().size();
    log.write_raw(std::string(4096, '\0'));
    tl.append(record_of(key, states[0], 4, 0.5));
    w.seen.clear();
    records = tl.load(dag, cpu());
    REQUIRE(records.size() == 4);
    CHECK(records[3].trial == 4);
    REQUIRE(w.seen.size() == 2);
    CHECK(w.seen[1].find("byte offset " + std::to_string(nul_at)) != std::string::npos);
    CHECK(w.seen[1].find("NUL") != std::string::npos);
}

TEST_CASE("tuning log: a record glued onto garbage (an append that did not start a new line) is recovered") {
    PipelineDAG dag(ansor_test::make_matmul(32).functions(), 2);
    PipelineKey key = make_pipeline_key(dag);
    auto states = samples(dag, 2, 12);
    TempLog log;
    Warnings w;
    TuningLog tl(log.path, w.sink());
    tl.append(record_of(key, states[0], 0, 3.0));
    const size_t garbage_at = log.read().size();
    const std::string cut = record_line(record_of(key, states[1], 1, 0.1)).substr(0, 40);
    log.write_raw(cut + record_line(record_of(key, states[1], 2, 2.0)) + "\n");
    auto records = tl.load(dag, cpu());
    REQUIRE(records.size() == 2);
    CHECK(records[1].trial == 2);
    REQUIRE(w.seen.size() == 1);
    CHECK(w.seen[0].find("skipped " + std::to_string(cut.size()) + " byte(s) at byte offset " +
                         std::to_string(garbage_at)) != std::string::npos);
}

TEST_CASE("tuning log: two processes appending at once leave every record whole") {
    PipelineDAG dag(ansor_test::make_matmul(32).functions(), 2);
    PipelineKey key = make_pipeline_key(dag);
    auto states = samples(dag, 4, 13);
    constexpr int kPerWriter = 60;
    std::vector<std::vector<TuningRecord>> planned(2);
    for (uint64_t writer = 0; writer < 2; writer++) {
        for (int i = 0; i < kPerWriter; i++) planned[writer].push_back(long_failure(key, states[i % states.size()], i, writer));
    }
    TempLog log;
    int start[2];
    REQUIRE(::pipe(start) == 0);
    std::vector<pid_t> writers;
    for (uint64_t writer = 0; writer < 2; writer++) {
        pid_t pid = ::fork();
        REQUIRE(pid >= 0);
        if (pid == 0) {
            ::close(start[1]);
            char go;
            (void)::read(start[0], &go, 1);  // both start when the parent closes its end
            int status = 0;
            try {
                TuningLog tl(log.path);
                for (const TuningRecord &r : planned[writer]) tl.append(r);
            } catch (...) {
                status = 1;
            }
            ::_exit(status);
        }
        writers.push_back(pid);
    }
    ::close(start[0]);
    ::close(start[1]);
    for (pid_t pid : writers) {
        int status = 0;
        REQUIRE(::waitpid(pid, &status, 0) == pid);
        CHECK(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 0);
    }

    Warnings w;
    std::vector<TuningRecord> all = TuningLog(log.path, w.sink()).read_all();
    CHECK(w.seen.empty());
    REQUIRE(all.size() == 2 * kPerWriter);
    const std::string text = log.read();
    CHECK(std::count(text.begin(), text.end(), '\n') == 2 * kPerWriter);
    std::map<uint64_t, std::set<int64_t>> trials;
    for (const TuningRecord &r : all) {
        REQUIRE(r.seed);
        CHECK(r.error == planned[*r.seed][(size_t)*r.trial].error);
        CHECK(r.steps == planned[*r.seed][(size_t)*r.trial].steps);
        trials[*r.seed].insert(*r.trial);
    }
    CHECK(trials[0].size() == kPerWriter);
    CHECK(trials[1].size() == kPerWriter);
}

TEST_CASE("tuning log: after kill -9 of a writer every record it had appended reads back") {
    PipelineDAG dag(ansor_test::make_matmul(32).functions(), 2);
    PipelineKey key = make_pipeline_key(dag);
    auto states = samples(dag, 8, 14);
    std::vector<TuningRecord> planned;
    for (int i = 0; i < 5000; i++) planned.push_back(record_of(key, states[i % states.size()], i, 1.0 + i));
    TempLog log;
    int done[2];
    REQUIRE(::pipe(done) == 0);
    pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        ::close(done[0]);
        TuningLog tl(log.path);
        for (const TuningRecord &r : planned) {
            tl.append(r);  // returns once the record is fsync'd
            const int64_t trial = *r.trial;
            if (::write(done[1], &trial, sizeof(trial)) != (ssize_t)sizeof(trial)) ::_exit(1);
        }
        ::_exit(0);
    }
    ::close(done[1]);
    int64_t trial = -1;
    while (trial < 30 && ::read(done[0], &trial, sizeof(trial)) == (ssize_t)sizeof(trial)) {
    }
    REQUIRE(::kill(pid, SIGKILL) == 0);
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    std::vector<int64_t> confirmed = drain(done[0]);
    ::close(done[0]);
    const int64_t last_confirmed = confirmed.empty() ? trial : confirmed.back();
    REQUIRE(last_confirmed >= 30);

    Warnings w;
    auto records = TuningLog(log.path, w.sink()).load(dag, cpu());
    // Every confirmed record, in order, as written; at most one more (the
    // one being appended when the kill came) may follow.
    REQUIRE((int64_t)records.size() >= last_confirmed + 1);
    CHECK((int64_t)records.size() <= last_confirmed + 2);
    for (size_t i = 0; i < records.size(); i++) {
        CAPTURE(i);
        CHECK(records[i].trial == (int64_t)i);
        CHECK(records[i].min_ms == planned[i].min_ms);
        CHECK(records[i].steps == planned[i].steps);
        REQUIRE(records[i].state);
        CHECK(records[i].state->key() == states[i % states.size()].key());
    }
    // A record cut by the kill would only warn; nothing else may.
    for (const std::string &m : w.seen) CHECK(m.find("cut short") != std::string::npos);
}

TEST_CASE("tuning log: the pipeline key of a fixed pipeline is the same in every build") {
    // Recorded values: if this fails, records written by earlier builds are
    // no longer found (a changed description or Halide printer): raise
    // kPipelineKeyRevision and say so in docs/tuning_log.md.
    PipelineDAG dag(ansor_test::make_matmul_relu(64).functions(), 2);
    PipelineKey key = make_pipeline_key(dag);
    CHECK(key.hash == "26c07044884a38be");
    CHECK(key.check == "d14771bf8118d39b");
    CHECK(pipeline_key_format() == "1-b1c8f8665c0c4bf4");
    CHECK(fnv1a_hex(key.text) == key.hash);
    CHECK(check_hash_hex(key.text) == key.check);
    CHECK(check_hash_hex("") != check_hash_hex(std::string(1, '\0')));
    // A second construction in this process gives the same key.
    PipelineDAG again(ansor_test::make_matmul_relu(64).functions(), 2);
    CHECK(make_pipeline_key(again).hash == key.hash);
    CHECK(make_pipeline_key(again).check == key.check);
}

TEST_CASE("tuning log: records measured under other conditions are reported and never applied as the best") {
    PipelineDAG dag(ansor_test::make_matmul(32).functions(), 2);
    PipelineKey key = make_pipeline_key(dag);
    auto states = samples(dag, 4, 15);
    TempLog log;
    Warnings w;
    TuningLog tl(log.path, w.sink());
    tl.append(record_of(key, states[0], 0, 2.0));
    tl.append(record_of(key, states[1], 1, 0.2, 16));  // faster with 16 threads
    tl.append(record_of(key, states[2], 2, 0.3, 16));
    auto edited = [&](int64_t trial, const char *field, const nlohmann::json &value) {
        nlohmann::json j = nlohmann::json::parse(record_line(record_of(key, states[3], trial, 0.1)));
        if (value.is_null()) j.erase(field);
        else j[field] = value;
        return j;
    };
    tl.append(record_from_json(edited(3, "host", "Some Other CPU")));
    tl.append(record_from_json(edited(4, "steps_format", 999)));
    tl.append(record_from_json(edited(5, "feature_set", "0-1-0000000000000000")));
    // A record from before records named their conditions (version 1).
    nlohmann::json old = edited(6, "host", nullptr);
    for (const char *f : {"check", "threads", "steps_format", "feature_set", "key_format"}) old.erase(f);
    old["version"] = 1;
    log.write_raw(old.dump() + "\n");
    // A record of another pipeline under the same key (a collision).
    tl.append(record_from_json(edited(7, "check", "0123456789abcdef")));
    tl.append(record_of(key, states[1], 8, 1.5));

    // A record of another feature set applies: its program and time are
    // the same whatever the model's columns.
    auto records = tl.load(dag, cpu());
    REQUIRE(records.size() == 3);
    CHECK(records[0].trial == 0);
    CHECK(records[1].trial == 5);
    CHECK(records[2].trial == 8);
    REQUIRE(w.seen.size() == 2);
    CAPTURE(w.seen[0]);
    CHECK(w.seen[0].find("5 record(s) of pipeline " + key.hash + " were measured under other conditions") !=
          std::string::npos);
    CHECK(w.seen[0].find("first at line 2") != std::string::npos);
    CHECK(w.seen[0].find("2 with another thread count (16; this run 2)") != std::string::npos);
    CHECK(w.seen[0].find("1 with another host CPU (\"Some Other CPU\"; this run \"" + host_cpu_id() + "\")") !=
          std::string::npos);
    CHECK(w.seen[0].find("1 with another steps format (999; this run " + std::to_string(kStepsFormatVersion) + ")") !=
          std::string::npos);
    CHECK(w.seen[0].find("feature set") == std::string::npos);
    CHECK(w.seen[0].find("1 of record version 1") != std::string::npos);
    CHECK(w.seen[1].find("1 record(s) carry this pipeline's key " + key.hash + " but another check hash") !=
          std::string::npos);

    auto best = tl.best(dag, cpu());
    REQUIRE(best);
    CHECK(best->trial == 5);
    CHECK(best->min_ms == 0.1);

    // Under 16 threads, the 16-thread records are the applicable ones.
    w.seen.clear();
    auto at16 = tl.load(dag, key, conditions_of_this_build(cpu(), 16));
    REQUIRE(at16.size() == 2);
    CHECK(best_record(at16)->trial == 1);

    // Datasets may read every measurement of the pipeline on this target,
    // but never another pipeline's.
    auto any = tl.load(dag, key, cpu(), RecordScope::any_conditions);
    CHECK(any.size() == 8);
    for (const TuningRecord &r : any) CHECK(r.trial != 7);
}

TEST_CASE("tuning log: a session applies no record of another thread count") {
    auto p = ansor_test::make_matmul(32);
    PipelineDAG dag(p.functions(), 2);
    PipelineKey key = make_pipeline_key(dag);
    TempLog log;
    TuningLog(log.path).append(record_of(key, samples(dag, 1, 16)[0], 0, 0.1, 8));
    SessionSettings settings = session_settings(
        Options::from_map({{"HL_ANSOR_TRIALS", "0"}, {"HL_ANSOR_PROGRESS", "0"}}), dag, cpu());
    settings.log = log.path;
    REQUIRE(settings.measure.threads == 2);
    TuningSession session(dag, cpu(), settings);
    CHECK(session.history().empty());
    const std::string why = "holds no successful measurement of this pipeline (key " + key.hash + ") on target " +
                            cpu().to_string() + " with 2 thread(s)";
    CHECK_THROWS_WITH_AS(session.choose(), doctest::Contains(why.c_str()), UserError);
}

TEST_CASE("tuning log: a version 1 record applies only once adopted under stated conditions") {
    PipelineDAG dag(ansor_test::make_matmul(32).functions(), 2);
    PipelineKey key = make_pipeline_key(dag);
    auto states = samples(dag, 2, 17);
    TempLog old_log, new_log;
    nlohmann::json old = nlohmann::json::parse(record_line(record_of(key, states[0], 0, 0.7)));
    for (const char *f : {"check", "threads", "host", "steps_format", "feature_set", "key_format"}) old.erase(f);
    old["version"] = 1;
    old_log.write_raw(old.dump() + "\n");
    Warnings w;
    CHECK_FALSE(TuningLog(old_log.path, w.sink()).best(dag, cpu()));
    REQUIRE(w.seen.size() == 1);
    CHECK(w.seen[0].find("1 of record version 1") != std::string::npos);

    std::vector<TuningRecord> read = TuningLog(old_log.path).read_all();
    REQUIRE(read.size() == 1);
    TuningRecord adopted = adopt_record(read[0], conditions_of_this_build(cpu(), 2), old_log.path + ":1");
    CHECK_THROWS_AS(adopt_record(adopted, conditions_of_this_build(cpu(), 2), "x"), std::invalid_argument);
    TuningLog(new_log.path).append(adopted);
    const std::string line = new_log.read();
    CHECK(line.find("\"adopted_from\":\"" + old_log.path + ":1\"") != std::string::npos);
    auto best = TuningLog(new_log.path).best(dag, cpu());
    REQUIRE(best);
    CHECK(best->min_ms == 0.7);
    CHECK(best->state->key() == states[0].key());
    // Stated for another thread count, it does not apply here.
    TempLog other;
    TuningLog(other.path).append(adopt_record(read[0], conditions_of_this_build(cpu(), 8), "x"));
    CHECK_FALSE(TuningLog(other.path, w.sink()).best(dag, cpu()));
}
