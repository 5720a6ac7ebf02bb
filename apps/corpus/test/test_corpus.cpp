// The corpus tool's core on a fake machine: entries are appended, a second
// run resumes where the first stopped, a cut-short last entry is dropped and
// measured again, and the training reader rebuilds every pipeline under its
// stored key and featurises its programs.
#include "corpus_dataset.h"
#include "corpus_file.h"
#include "corpus_pipelines.h"
#include "corpus_run.h"
#include "shapes.h"
#include "util/errors.h"
#include "util/target.h"

#include <doctest/doctest.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <unistd.h>

using namespace ansor_corpus;

namespace {

const Halide::Target cpu(ansor::project_cpu_target());

std::atomic<int> measured{0};

// Times drawn from each program's key: deterministic, nothing compiled.
class KeyTimedMeasurer : public ansor::Measurer {
public:
    std::vector<ansor::MeasureResult> measure(const std::vector<ansor::State> &states) override {
        std::vector<ansor::MeasureResult> out;
        for (const auto &s : states) {
            ansor::MeasureResult r;
            r.ok = std::hash<std::string>()(s.key()) % 5 != 0;
            r.error = r.ok ? "" : "crashed";
            r.min_ms = r.median_ms = 1 + (double)(std::hash<std::string>()(s.key()) % 1000) / 100;
            out.push_back(r);
            measured++;
        }
        return out;
    }
};

CorpusRunOptions small_run(const std::string &out, uint64_t first, uint64_t last) {
    CorpusRunOptions run;
    run.specs = random_specs(first, last, 3, 64);
    run.out = out;
    run.programs = 2;
    run.per_round = 1;  // the second program is evolved under the model trained on the first
    run.population = 32;
    run.options = ansor::Options::from_map({{"HL_ANSOR_GENERATIONS", "1"}});
    run.target = cpu;
    run.progress = false;
    run.parts.make_measurer = [](const ansor::PipelineDAG &, const ansor::MeasureOptions &) {
        return std::make_unique<KeyTimedMeasurer>();
    };
    return run;
}

std::string temp_path(const std::string &tag, const std::string &ext) {
    const std::string path = "/tmp/ansor_corpus_test_" + tag + "_" + std::to_string(getpid()) + ext;
    std::remove(path.c_str());
    return path;
}

std::string file_bytes(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void cut(const std::string &path, size_t bytes) {
    const std::string all = file_bytes(path);
    REQUIRE(all.size() > bytes);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << all.substr(0, all.size() - bytes);
}

}  // namespace

TEST_CASE("corpus: a run appends whole entries and a second run resumes where it stopped") {
    for (const std::string ext : {".jsonl.gz", ".jsonl"}) {
        CAPTURE(ext);
        const std::string path = temp_path("resume", ext);
        measured = 0;
        CorpusRunStats first = run_corpus(small_run(path, 0, 1));
        CHECK(first.done == 2);
        CHECK(first.programs == 4);
        CHECK(measured == 4);
        const std::string before = file_bytes(path);
        CHECK((ext == ".jsonl") == (before.substr(0, 1) == "{"));
        CorpusContents c = read_corpus(path);
        REQUIRE(c.entries.size() == 2);
        CHECK(!c.cut_short());
        CHECK(c.entries[0].spec.id() == "random_pipeline max_size=64 seed=0 stages=3");
        CHECK(c.entries[0].programs.size() == 2);
        CHECK(c.entries[0].key.size() == 16);
        CHECK(c.entries[0].target == cpu.to_string());

        measured = 0;
        CorpusRunStats second = run_corpus(small_run(path, 0, 3));
        CHECK(second.already == 2);
        CHECK(second.done == 2);
        CHECK(measured == 4);
        CHECK(file_bytes(path).substr(0, before.size()) == before);  // nothing earlier rewritten
        REQUIRE(read_corpus(path).entries.size() == 4);
        CHECK(read_corpus(path).entries[3].spec.params.at("seed") == 3);

        measured = 0;
        CHECK(run_corpus(small_run(path, 0, 3)).done == 0);
        CHECK(measured == 0);
        std::remove(path.c_str());
    }
}

TEST_CASE("corpus: a cut-short last entry is left out, then measured again by the next run") {
    for (const std::string ext : {".jsonl.gz", ".jsonl"}) {
        for (size_t bytes : {3, 40}) {  // inside the end line, or into a program line
            CAPTURE(ext);
            CAPTURE(bytes);
            const std::string path = temp_path("cut", ext);
            run_corpus(small_run(path, 0, 1));
            CorpusEntry second = read_corpus(path).entries[1];
            second.seconds = 0;  // wall time, which may differ
            cut(path, bytes);
            CorpusContents c = read_corpus(path);
            CHECK(c.cut_short());
            REQUIRE(c.entries.size() == 1);
            CHECK(c.entries[0].spec.params.at("seed") == 0);

            measured = 0;
            CHECK(run_corpus(small_run(path, 0, 1)).done == 1);
            CHECK(measured == 2);
            c = read_corpus(path);
            CHECK(!c.cut_short());
            REQUIRE(c.entries.size() == 2);
            c.entries[1].seconds = 0;
            CHECK(entry_lines(c.entries[1]) == entry_lines(second));  // the same programs again
            std::remove(path.c_str());
        }
    }
}

TEST_CASE("corpus: a malformed line inside the file is an error naming its line") {
    const std::string path = temp_path("malformed", ".jsonl");
    run_corpus(small_run(path, 0, 0));
    std::string text = file_bytes(path);
    text.replace(text.find("\"ok\""), 4, "\"ok");
    std::ofstream(path, std::ios::trunc) << text;
    CHECK_THROWS_WITH_AS(read_corpus(path), doctest::Contains((path + ":2: malformed corpus line").c_str()), ansor::UserError);
    std::remove(path.c_str());
}

TEST_CASE("corpus: a stop request drops the unfinished pipeline and appends nothing for it") {
    const std::string path = temp_path("stop", ".jsonl.gz");
    CorpusRunOptions run = small_run(path, 0, 1);
    run.stop_requested = [] { return measured >= 1; };
    measured = 0;
    CorpusRunStats s = run_corpus(run);
    CHECK(s.stopped);
    CHECK(s.done == 0);
    CHECK(read_corpus(path).entries.empty());
    std::remove(path.c_str());
}

TEST_CASE("corpus: the training reader rebuilds each pipeline under its key and featurises its programs") {
    const std::string path = temp_path("train", ".jsonl.gz");
    run_corpus(small_run(path, 0, 2));
    const CorpusContents c = read_corpus(path);
    ansor_apps::ProgramDataset data;
    CorpusDatasetStats stats = add_corpus_files({path}, cpu, data);
    CHECK(stats.entries == 3);
    CHECK(stats.key_mismatch == 0);
    CHECK(stats.unreplayable == 0);
    REQUIRE(data.pipelines.size() == 3);
    for (size_t i = 0; i < 3; i++) {
        CHECK(data.pipelines[i].hash == c.entries[i].key);
        CHECK(data.pipelines[i].name == c.entries[i].spec.id());
        CHECK(data.pipelines[i].ms.size() == 2);
        CHECK(data.pipelines[i].programs.programs() == 2);
        CHECK(data.pipelines[i].labels.size() == 2);
    }
    CHECK(stats.programs == 6);

    // Another target's entries are left out; so is one whose key does not match.
    ansor_apps::ProgramDataset other;
    CHECK(add_corpus_files({path}, Halide::Target("x86-64-linux-sse41"), other).other_target == 3);
    CHECK(other.pipelines.empty());
    std::string text;
    for (CorpusEntry e : c.entries) {
        if (e.spec.params.at("seed") == 1) e.key = "0000000000000000";
        text += entry_lines(e);
    }
    const std::string tampered = temp_path("tampered", ".jsonl");
    std::ofstream(tampered) << text;
    ansor_apps::ProgramDataset kept;
    CHECK(add_corpus_files({tampered}, cpu, kept).key_mismatch == 1);
    CHECK(kept.pipelines.size() == 2);
    std::remove(path.c_str());
    std::remove(tampered.c_str());
}

TEST_CASE("corpus: suite operators and layers are measured and read back under their keys") {
    const std::string path = temp_path("suite", ".jsonl.gz");
    CorpusRunOptions run = small_run(path, 0, 0);
    run.specs.clear();
    for (const ansor_ops::OpShapes *op : {&ansor_ops::find_op("gmm"), &ansor_ops::find_layer("softmax")}) {
        PipelineSpec spec{op->name, {}};
        for (const ansor_ops::Param &p : op->small_shape) spec.params[p.name] = p.value;
        run.specs.push_back(spec);
    }
    CHECK(run_corpus(run).done == 2);
    const CorpusContents c = read_corpus(path);
    REQUIRE(c.entries.size() == 2);
    CHECK(c.entries[1].spec.id() == "softmax D=7 N=3");
    ansor_apps::ProgramDataset data;
    CorpusDatasetStats stats = add_corpus_files({path}, cpu, data);
    CHECK(stats.key_mismatch == 0);
    CHECK(stats.programs == 4);
    REQUIRE(data.pipelines.size() == 2);
    CHECK(data.pipelines[0].hash == c.entries[0].key);
    CHECK(data.pipelines[1].hash == c.entries[1].key);
    std::remove(path.c_str());
}

TEST_CASE("corpus: with a model file, the search ranks by it from the first round and each entry names it") {
    const std::string path = temp_path("model", ".jsonl.gz");
    CorpusRunOptions run = small_run(path, 0, 1);
    run.model = ANSOR_SHIPPED_MODEL_FILE;
    {
        std::unique_ptr<BuiltPipeline> built = build_pipeline(run.specs[0], cpu);
        ansor::PipelineDAG dag(built->outputs(), run.parallelism);
        CHECK(corpus_settings(run, run.specs[0], dag).model_file == run.model);
        CorpusRunOptions plain = small_run(path, 0, 1);
        CHECK(corpus_settings(plain, run.specs[0], dag).model_file.empty());
    }
    CHECK(run_corpus(run).done == 2);
    const CorpusContents c = read_corpus(path);
    REQUIRE(c.entries.size() == 2);
    for (const CorpusEntry &e : c.entries) {
        CHECK(e.model == run.model);
        CHECK(e.error.empty());
        CHECK(e.programs.size() == 2);
    }
    // Entries of the search without a model say nothing of one.
    CHECK(entry_lines(c.entries[0]).find("\"model\"") != std::string::npos);
    CorpusEntry plain_entry = c.entries[0];
    plain_entry.model.clear();
    CHECK(entry_lines(plain_entry).find("\"model\"") == std::string::npos);
    std::remove(path.c_str());

    // A model file that cannot be read stops the run before it measures anything.
    run.model = "/no/such/model.gz";
    CHECK_THROWS_WITH_AS(run_corpus(run), doctest::Contains("/no/such/model.gz"), ansor::UserError);
    CHECK(read_corpus(path).entries.empty());
}

TEST_CASE("corpus: pipeline specs") {
    for (uint64_t seed = 0; seed < 200; seed++) {
        CHECK(stages_for_seed(seed) >= 2);
        CHECK(stages_for_seed(seed) <= 16);
    }
    CHECK(random_specs(5, 7, 0, 1024).size() == 3);
    CHECK(random_specs(5, 5, 9, 1024)[0].params.at("stages") == 9);
    // min_size is stored only when it is not the default, so earlier ids stay.
    CHECK(random_specs(5, 5, 9, 1024)[0].id() == "random_pipeline max_size=1024 seed=5 stages=9");
    const PipelineSpec large = random_specs(5, 5, 3, 2048, 512)[0];
    CHECK(large.id() == "random_pipeline max_size=2048 min_size=512 seed=5 stages=3");
    CHECK(!build_pipeline(large, cpu)->outputs().empty());
    PipelineSpec wrong_min = large;
    wrong_min.params["min_size"] = 4096;
    CHECK_THROWS_WITH_AS(build_pipeline(wrong_min, cpu), doctest::Contains("min_size=4096"), ansor::UserError);
    const std::vector<PipelineSpec> suite = suite_specs();
    CHECK(suite.size() == 12 * 4 + 6);
    // A layer generator and a suite operator build in process at their specs.
    for (const PipelineSpec &spec : {suite.front(), suite.back()}) {
        CAPTURE(spec.id());
        CHECK(!build_pipeline(spec, cpu)->outputs().empty());
    }
    PipelineSpec unknown{"no_such_generator", {}};
    CHECK_THROWS_AS(build_pipeline(unknown, cpu), ansor::UserError);
    PipelineSpec missing{kRandomGenerator, {{"seed", 1}}};
    CHECK_THROWS_WITH_AS(build_pipeline(missing, cpu), doctest::Contains("has no param stages"), ansor::UserError);
}
