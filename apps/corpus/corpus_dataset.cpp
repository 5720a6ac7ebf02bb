#include "corpus_dataset.h"

#include "corpus_file.h"
#include "corpus_pipelines.h"
#include "features/program_features.h"
#include "records/canonical_steps.h"
#include "records/pipeline_key.h"
#include "util/errors.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>

namespace ansor_corpus {

namespace {

double time_of(const CorpusProgram &p) {
    // A failure is an infinite time (throughput 0); a success never counts as one.
    if (!p.ok || !std::isfinite(p.min_ms)) return std::numeric_limits<double>::infinity();
    return std::max(p.min_ms, 1e-9);
}

// The steps (as text) of each pipeline's programs already added, by key.
using SeenSteps = std::map<std::string, std::map<std::string, size_t>>;

void add_entry(const CorpusEntry &e, const Halide::Target &target, ansor_apps::ProgramDataset &data, SeenSteps &seen,
               std::set<size_t> &touched, CorpusDatasetStats &stats) {
    std::unique_ptr<BuiltPipeline> built = build_pipeline(e.spec, target);
    ansor::PipelineDAG dag(built->outputs(), e.parallelism);
    const ansor::PipelineKey key = ansor::make_pipeline_key(dag);
    if (key.hash != e.key) {
        std::fprintf(stderr, "ansor: warning: corpus pipeline %s is stored under key %s but builds as %s (left out)\n",
                     e.spec.id().c_str(), e.key.c_str(), key.hash.c_str());
        stats.key_mismatch++;
        return;
    }
    auto found = std::find_if(data.pipelines.begin(), data.pipelines.end(),
                              [&](const ansor_apps::DatasetPipeline &p) { return p.hash == key.hash; });
    if (found == data.pipelines.end()) {
        data.pipelines.emplace_back();
        data.pipelines.back().name = e.spec.id();
        data.pipelines.back().hash = key.hash;
        found = data.pipelines.end() - 1;
    }
    ansor_apps::DatasetPipeline &p = *found;
    touched.insert((size_t)(found - data.pipelines.begin()));
    std::map<std::string, size_t> &programs = seen[key.hash];
    ansor::FeatureExtractor extractor(dag);
    std::vector<ansor::StageFeatures> rows;
    for (const CorpusProgram &program : e.programs) {
        p.records++;
        const std::string steps = program.steps.dump();
        if (auto dup = programs.find(steps); dup != programs.end()) {
            stats.duplicates++;
            p.duplicates++;
            p.ms[dup->second] = std::min(p.ms[dup->second], time_of(program));
            continue;
        }
        try {
            ansor::State state = ansor::state_from_canonical_steps(dag, key.names, program.steps);
            extractor.extract(state.replay(), rows);
        } catch (const ansor::InvalidState &) {
            stats.unreplayable++;
            p.unreplayable++;
            continue;
        }
        std::vector<float> block;
        for (const ansor::StageFeatures &f : rows) block.insert(block.end(), f.values.begin(), f.values.end());
        p.programs.add(block.data(), rows.size());
        programs[steps] = p.ms.size();
        p.ms.push_back(time_of(program));
        stats.programs++;
    }
}

}  // namespace

CorpusDatasetStats add_corpus_files(const std::vector<std::string> &files, const Halide::Target &target,
                                    ansor_apps::ProgramDataset &data, size_t max_entries) {
    CorpusDatasetStats stats;
    SeenSteps seen;
    std::set<size_t> touched;
    const std::string target_name = target.to_string();
    for (const std::string &file : files) {
        const CorpusContents c = read_corpus(file);
        if (c.file_bytes == 0) throw ansor::UserError("corpus file " + file + " is missing or empty");
        for (const CorpusEntry &e : c.entries) {
            if (stats.entries == max_entries) break;
            stats.entries++;
            if (e.target != target_name) stats.other_target++;
            else if (!e.error.empty() || e.programs.empty()) stats.untuned++;
            else add_entry(e, target, data, seen, touched, stats);
        }
    }
    for (size_t i : touched) ansor_apps::label_pipeline(data.pipelines[i]);
    return stats;
}

}  // namespace ansor_corpus
