#pragma once
// A pretraining set: measured programs of many pipelines, already
// featurised, so that the cost model can be trained before a pipeline's
// first measurement (HL_ANSOR_PRETRAIN; docs/cost_model.md, "Pretraining").
// A tuning log cannot serve for this on its own: its records hold steps, and
// featurising steps needs the pipeline they were measured on, which the
// plugin only has for the pipeline it is scheduling.
//
// The file is JSON lines. The first line is a header,
//   {"format": "ansor-pretraining", "version": 1, "target": T, "features": [names]}
// and every further line one program,
//   {"pipeline": KEY, "name": NAME, "ms": TIME or null if it failed, "rows": [[f, ...], ...]}
// with one row of feature values per statement, in the header's column order.
// A file whose feature names differ from this build's is refused: its rows
// would mean something else to the model.
//
// This file only reads and writes sets; training on one is the cost model's
// job (CostModel::pretrain, model/cost_model.h; TrainingData::add_pretraining,
// model/trained_model.h), so records/ does not depend on model/.
#include "features/program_batch.h"

#include <string>
#include <vector>

namespace ansor {

struct PretrainingPipeline {
    std::string key;   // pipeline key (records/pipeline_key.h)
    std::string name;  // for people, e.g. "gmm:0"
    ProgramBatch programs;
    std::vector<double> ms;  // per program; +infinity if it failed

    PretrainingPipeline();
};

struct PretrainingSet {
    std::string target;  // Halide::Target::to_string() of the measurements
    std::vector<PretrainingPipeline> pipelines;  // in file order of first appearance
    size_t programs() const;
};

// Writes `set` to `path`. Refuses (UserError) if `path` exists: a file
// someone made is never overwritten.
void write_pretraining_set(const std::string &path, const PretrainingSet &set);

// Reads a file written by write_pretraining_set. Throws UserError naming the
// file (and the line) if it is missing, not a pretraining set, of another
// feature layout, or malformed.
PretrainingSet read_pretraining_set(const std::string &path);

// What pretraining took from a set (CostModel::pretrain).
struct PretrainingSummary {
    size_t programs = 0, pipelines = 0;
};

}  // namespace ansor
