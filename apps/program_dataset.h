#pragma once
// A data set of measured programs for the cost-model accuracy benchmark
// (docs/cost_model.md): the tuning-log records of every operator-suite
// pipeline (generators/, every shape and the small test shape), featurised
// as the cost model sees them. A record names its pipeline only by a key, so
// every suite pipeline is built in process and its key compared.
#include "features/program_batch.h"

#include <Halide.h>

#include <string>
#include <vector>

namespace ansor_apps {

struct DatasetPipeline {
    std::string name;  // "op:shape" ("op:small" for the small shape)
    std::string hash;  // pipeline key
    size_t records = 0;     // records of this pipeline and target in the logs
    size_t duplicates = 0;  // records of a program already seen, merged into it
    size_t unreplayable = 0;  // records whose state failed to replay (left out)
    size_t failed = 0;        // programs with no successful measurement
    // One entry per distinct program (same canonical steps = same program).
    ansor::ProgramBatch programs;
    std::vector<double> ms;      // its fastest successful min_ms; +infinity if none
    std::vector<double> labels;  // normalised throughput among this pipeline's programs

    DatasetPipeline();
};

struct ProgramDataset {
    std::vector<DatasetPipeline> pipelines;  // those with at least one program, suite order
    size_t records_read = 0;      // every well-formed record of the logs
    size_t other_target = 0;      // records of another target
    size_t unknown_pipeline = 0;  // records of this target whose key no suite pipeline has
    size_t programs() const;
};

// Sets p.failed and p.labels from p.ms (after programs were added).
void label_pipeline(DatasetPipeline &p);

// Reads the logs; `parallelism` is the one the DAGs are analysed with (the
// benchmark's machine params use 2). Warnings (stale or cut-short records)
// go to stderr.
ProgramDataset load_suite_dataset(const std::vector<std::string> &logs, const Halide::Target &target,
                                  int parallelism);

}  // namespace ansor_apps
