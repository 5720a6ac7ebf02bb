#pragma once
// The corpus command's core (ansor_corpus, docs/corpus.md), callable with a
// fake measurer: for each pipeline spec not yet complete in the corpus file,
// build the pipeline, tune it with a TuningSession (random programs in the
// first round, or a model file's picks, then programs evolved under the cost
// model the session trains on what it measured), and append the pipeline
// and every measured program to the file as one entry.
#include "corpus_file.h"
#include "options/options.h"
#include "search/tuning_session.h"

#include <functional>
#include <string>
#include <vector>

namespace ansor_corpus {

struct CorpusRunOptions {
    std::vector<PipelineSpec> specs;
    std::string out;               // corpus file, appended to (".gz": gzip members)
    int programs = 16;             // programs measured per pipeline
    int per_round = 8;             // programs per round (the first random, or the model's picks)
    int population = 256;          // evolution's population, unless HL_ANSOR_POPULATION is set
    // A cost model file (model/model_file.h) to rank by from the first
    // round instead of sampling at random: the programs measured are the
    // ones it rates best after evolution, i.e. where a trained model errs
    // when it picks without measuring. "" (the default): no model file.
    std::string model;
    ansor::Options options;        // HL_ANSOR_* (measurement, annotation, evolution, seed)
    Halide::Target target;
    int parallelism = 2;           // the DAG analysis's (the training tool's must match)
    double minutes = 0;            // > 0: start no pipeline after this long
    bool progress = true;          // a line per pipeline on stderr
    ansor::SessionParts parts;     // a fake measurer for tests
    std::function<bool()> stop_requested;  // checked between rounds; the unfinished pipeline is dropped
};

struct CorpusRunStats {
    size_t total = 0;         // specs asked for
    size_t already = 0;       // complete in the file before this run
    size_t done = 0;          // entries appended by this run
    size_t programs = 0, ok = 0;  // programs measured by this run, and those that ran correctly
    size_t failed_pipelines = 0;  // entries recorded with an error
    bool stopped = false;     // stopped early (time or a stop request)
    double seconds = 0;
};

// The session settings a corpus pipeline is tuned with (the run's model file
// or none, the corpus's round size, population and trials, a seed drawn
// from the spec).
ansor::SessionSettings corpus_settings(const CorpusRunOptions &run, const PipelineSpec &spec,
                                       const ansor::PipelineDAG &dag);

CorpusRunStats run_corpus(const CorpusRunOptions &run);

}  // namespace ansor_corpus
