#pragma once
// Which pipelines a corpus holds and how each is built in process: random
// pipelines (generators/random/) by seed, and optionally the operator suite
// at Ansor's shapes and the layer generators at their default shapes
// (generators/shapes.h). The 14 apps of apps/app_pipelines are the cost
// model's evaluation set: `app_specs()` measures them into a file of their
// own (corpus/apps_eval.jsonl.gz) that the accuracy benchmark tests on and
// the shipped model is never trained on.
#include "corpus_file.h"

#include <Halide.h>

#include <memory>
#include <vector>

namespace ansor_corpus {

constexpr const char *kRandomGenerator = "random_pipeline";

// Stages of a random pipeline when none is given: 2..16, drawn from the seed
// (through a mix of its bits, so neighbouring seeds differ).
int stages_for_seed(uint64_t seed);

// Seeds first..last; stages 0 draws each seed's with stages_for_seed().
std::vector<PipelineSpec> random_specs(uint64_t first, uint64_t last, int stages, int max_size, int min_size = 16);

// Every operator of the suite at each of Ansor's shapes, then every layer
// generator at its default shape.
std::vector<PipelineSpec> suite_specs();

// Every app of apps/app_pipelines at its default sizes.
std::vector<PipelineSpec> app_specs();

// A pipeline built from its spec; owns the Funcs (keep it while its DAG is in use).
class BuiltPipeline {
public:
    virtual ~BuiltPipeline() = default;
    virtual std::vector<Halide::Internal::Function> outputs() const = 0;
};

// Throws ansor::UserError for an unknown generator or params that do not fit it.
std::unique_ptr<BuiltPipeline> build_pipeline(const PipelineSpec &spec, const Halide::Target &target);

}  // namespace ansor_corpus
