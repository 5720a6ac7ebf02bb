// How often each stage kind (and each feature: update definitions,
// tuple-valued Funcs, boundary conditions) occurs in random pipelines:
//   random_pipeline_kinds [first_seed last_seed [stages]]
// (defaults 0 999 12), as a Markdown table (docs/random_pipelines.md).
#include "cli.h"
#include "random_pipeline.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace random_pipeline;

int main(int argc, char **argv) {
    uint64_t first = 0, last = 999;
    int stages = 12;
    ansor_cli::Parser p("random_pipeline_kinds", "How often each stage kind occurs in random pipelines, as a Markdown table.");
    p.positional("first_seed", &first, "the first seed").optional();
    p.positional("last_seed", &last, "the last seed").optional();
    p.positional("stages", &stages, "stages per pipeline").optional();
    p.parse(argc, argv);
    if (p.given("first_seed") != p.given("last_seed")) p.fail("needs both first_seed and last_seed");
    std::vector<long> stages_of((int)StageKind::Count, 0), pipelines_with((int)StageKind::Count, 0);
    long total = 0, updates = 0, tuples = 0, boundaries = 0, pipelines = 0;
    for (uint64_t seed = first; seed <= last; seed++, pipelines++) {
        RandomPipeline p = build_random_pipeline(seed, stages);
        std::vector<bool> seen((int)StageKind::Count, false);
        for (const StageRecord &r : p.funcs.stages) {
            stages_of[(int)r.kind]++;
            seen[(int)r.kind] = true;
            total++;
            updates += r.has_update;
            tuples += r.tuple_valued;
            boundaries += r.boundary;
        }
        for (int k = 0; k < (int)StageKind::Count; k++) pipelines_with[k] += seen[k];
    }
    std::printf("Seeds %llu..%llu, stages=%d: %ld pipelines, %ld stages.\n\n", (unsigned long long)first,
                (unsigned long long)last, stages, pipelines, total);
    std::printf("| kind | stages | share of stages | pipelines with one |\n|---|---:|---:|---:|\n");
    for (int k = 0; k < (int)StageKind::Count; k++) {
        std::printf("| %s | %ld | %.1f%% | %.1f%% |\n", kind_name((StageKind)k), stages_of[k],
                    100.0 * stages_of[k] / total, 100.0 * pipelines_with[k] / pipelines);
    }
    std::printf("\nStages with an update definition: %.1f%%; with a tuple-valued Func: %.1f%%; "
                "reading through a boundary condition: %.1f%%.\n",
                100.0 * updates / total, 100.0 * tuples / total, 100.0 * boundaries / total);
    return 0;
}
