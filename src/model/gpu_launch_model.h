#pragma once
// An analytic estimate of a GPU program's time from its launch geometry: the
// ranker of GPU programs where no GPU has timed any (docs/gpu.md, "Ranking
// without a GPU"). The learned models are trained on CPU measurements, which
// say nothing about occupancy; this one knows only what decides a GPU
// kernel's speed to first order:
//   - threads per block and blocks per kernel against the GPU's streaming
//     multiprocessors (SMs): how many warps each SM holds, how many waves of
//     blocks the kernel takes;
//   - the register tile each thread accumulates: loads amortised over it,
//     and independent accumulators that hide latency, against the registers
//     it costs (fewer resident blocks);
//   - shared memory per block (fewer resident blocks), serial host loops
//     around a kernel (one launch per iteration), single-thread stages.
// Scores are -ln(estimated cycles) (higher is faster); a stage's score is
// minus its estimated cycles, so crossover prefers the parent whose stage
// costs less. It learns nothing: `update` is a no-op, pretraining refused.
#include "dag/pipeline_dag.h"
#include "model/cost_model.h"
#include "util/gpu_target.h"

namespace ansor {

struct GpuLaunchEstimate {
    double cycles = 0;  // the whole program
    int kernels = 0;
    // Per kernel (a root stage bound to the GPU): blocks, threads per block,
    // launches (iterations of host loops around it), waves of blocks over
    // the SMs, resident warps per SM, and its estimated cycles.
    struct Kernel {
        std::string func;
        int stage = 0;
        int64_t blocks = 1, threads = 1, launches = 1, register_tile = 1, shared_bytes = 0;
        int64_t waves = 1, warps_per_sm = 1;
        double cycles = 0;
    };
    std::vector<Kernel> per_kernel;
    // Every non-inlined stage in the model's Func order (the order of
    // FeatureExtractor::extract) with the cycles charged to it: a kernel's
    // to its root stage, 0 to the stages computed inside it.
    struct Stage {
        std::string func;
        int stage = 0;
        double cycles = 0;
    };
    std::vector<Stage> stages;
};

class GpuLaunchModel : public CostModel {
public:
    // `sm_count`: the GPU's streaming multiprocessors (the MachineParams
    // parallelism a GPU build is given; Li2018 reads it the same way).
    GpuLaunchModel(const PipelineDAG &dag, const GpuTargetFacts &gpu, int sm_count);

    // The estimate for one program; throws InvalidState if it does not replay.
    GpuLaunchEstimate estimate(const State &program) const;

    std::vector<double> predict(const std::vector<State> &states) override;
    std::vector<ProgramPrediction> predict_stages(const std::vector<State> &states) override;
    void update(const std::vector<State> &, const std::vector<MeasureResult> &) override {}
    std::string name() const override { return "gpu-launch"; }

private:
    const PipelineDAG &dag_;
    GpuTargetFacts gpu_;
    int sm_count_;
};

}  // namespace ansor
