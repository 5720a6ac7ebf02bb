#pragma once
// Corpus files (corpus_file.h) as training data for the cost model: every
// pipeline is rebuilt from its generator and params, its key checked against
// the stored one, and its programs featurised as the search sees them
// (apps/program_dataset.h), one group per pipeline.
#include "program_dataset.h"

#include <Halide.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ansor_corpus {

struct CorpusDatasetStats {
    size_t entries = 0;        // whole entries read
    size_t other_target = 0;   // entries measured for another target (left out)
    size_t untuned = 0;        // entries with an error or no programs
    size_t key_mismatch = 0;   // entries whose rebuilt pipeline has another key (left out, warned)
    size_t programs = 0;       // programs featurised
    size_t duplicates = 0;     // programs of a pipeline already seen (merged, fastest time kept)
    size_t unreplayable = 0;   // programs whose steps no longer fit their pipeline (left out)
};

// Adds the programs of `files` measured on `target` to `data`: to the
// pipeline of the same key if `data` has one, else as a new pipeline named by
// its spec. Labels of the pipelines touched are recomputed. Only the first
// `max_entries` entries of the files, in order, are read: corpus files are
// appended to, so a prefix is the corpus as it was when a model was trained.
CorpusDatasetStats add_corpus_files(const std::vector<std::string> &files, const Halide::Target &target,
                                    ansor_apps::ProgramDataset &data, size_t max_entries = SIZE_MAX);

}  // namespace ansor_corpus
