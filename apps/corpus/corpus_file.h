#pragma once
// The corpus file (docs/corpus.md): measured programs of many pipelines, one
// entry per pipeline, as compact JSON lines:
//   {"pipeline":{"generator":..,"params":{..},"key":..,"target":..,"parallelism":2,"funcs":N[,"model":M]}}
//   {"steps":[..],"ok":true,"min_ms":..,"median_ms":..,"seconds":..}      one per program
//   {"end":{"programs":N,"seconds":S}}            (or with "error" when it could not be tuned)
// An entry is appended in one piece: a gzip member of its own when the path
// ends in ".gz" (gzip files may be concatenated), else one write to a plain
// file. A run killed mid-append leaves a cut-short last entry; readers drop
// it, and the next append first cuts the file back to its last whole entry.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ansor_corpus {

// A pipeline by how it is built: a generator and its GeneratorParams.
struct PipelineSpec {
    std::string generator;                  // "random_pipeline" or a suite/layer generator name
    std::map<std::string, int64_t> params;  // GeneratorParam name -> value
    // "random_pipeline max_size=1024 seed=7 stages=9": unique per spec.
    std::string id() const;
};

struct CorpusProgram {
    nlohmann::json steps;  // canonical steps (records/canonical_steps.h)
    bool ok = false;
    std::string error;
    double min_ms = 0, median_ms = 0;  // +infinity where the file holds null
    double seconds = 0;                // wall time measuring it, compile included
};

struct CorpusEntry {
    PipelineSpec spec;
    std::string key;     // PipelineKey::hash of the built pipeline
    std::string target;  // Halide::Target::to_string() of the measurements
    int parallelism = 2;
    int funcs = 0;
    // The cost model file the programs were ranked by from the first round
    // (its picks: CorpusRunOptions::model), "" for the corpus's own search.
    std::string model;
    std::vector<CorpusProgram> programs;
    double seconds = 0;  // the whole entry's wall time
    std::string error;   // why the pipeline could not be tuned ("" if it was)
};

struct CorpusContents {
    std::vector<CorpusEntry> entries;  // whole entries, in file order
    size_t valid_bytes = 0;            // the file's length up to the end of the last whole entry
    size_t file_bytes = 0;
    bool cut_short() const { return valid_bytes < file_bytes; }
};

// Reads a corpus file (gzip or plain, told by its first bytes); a missing
// file is empty. A cut-short last entry is left out. Throws ansor::UserError
// naming the file and line for a malformed line inside a whole entry.
CorpusContents read_corpus(const std::string &path);

// Appends one entry (see above), first cutting a cut-short tail off the
// file. Throws ansor::UserError if the file cannot be written.
void append_entry(const std::string &path, const CorpusEntry &entry);

// The entry's lines, each ending in '\n'.
std::string entry_lines(const CorpusEntry &entry);

}  // namespace ansor_corpus
