#pragma once
// Random annotation (Ansor §4.2): turns a sketch into a complete program by
// drawing tile sizes, parallelising outer loops, vectorising inner loops,
// choosing auto-unroll steps and moving the Funcs no rule tiled.
#include "annotate/factorization.h"
#include "state/state.h"

#include <Halide.h>

#include <random>

namespace ansor {

struct AnnotationOptions {
    int parallelism = 1;
    int64_t max_innermost_factor = 64;
    std::vector<int> auto_unroll_steps = {0, 16, 64, 512};
};

class RandomAnnotator {
public:
    RandomAnnotator(const PipelineDAG &dag, const Halide::Target &target, AnnotationOptions options);
    // Throws InvalidState if the sketch cannot be completed.
    State annotate(const State &sketch, std::mt19937_64 &rng);

    // Pieces reused by mutation later.
    void annotate_stage(State &out, LoopNest &model, const std::string &func, int stage, std::mt19937_64 &rng);
    Location random_location(const LoopNest &model, const std::string &func, std::mt19937_64 &rng) const;

private:
    bool is_flexible(const State &sketch, const ModelFunc &f) const;
    int vector_width(const std::string &func) const;

    const PipelineDAG &dag_;
    Halide::Target target_;
    AnnotationOptions options_;
    FactorizationMemo factors_;
};

}  // namespace ansor
