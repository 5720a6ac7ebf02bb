#pragma once
// What the sketch-rule tests share: where a State's own steps place a Func,
// and programs sampled from sketches.
#include "annotate/random_annotator.h"
#include "search/program_sampler.h"
#include "state/state.h"
#include "util/errors.h"

#include <doctest/doctest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

namespace ansor_test {

// The location the first placement step naming `func` gives it (compute_at,
// compute_root or compute_inline), if any step does.
inline std::optional<ansor::Location> placement_of(const ansor::State &s, const std::string &func) {
    const ansor::FuncSteps *g = s.group(func);
    if (!g) return std::nullopt;
    for (const auto &step : g->steps) {
        if (const ansor::Location *l = step->placement()) return *l;
    }
    return std::nullopt;
}

// A program `annotator` draws from `sketch`, drawing again, as the sampler
// does, while a draw does not fit (InvalidState: a check refused it).
inline ansor::State annotate_fitting(ansor::RandomAnnotator &annotator, const ansor::State &sketch,
                                     std::mt19937_64 &rng) {
    for (int attempt = 0; attempt < 512; attempt++) {
        try {
            return annotator.annotate(sketch, rng);
        } catch (const ansor::InvalidState &) {
        }
    }
    FAIL("no draw of 512 from the sketch fits");
    return sketch;
}

// `count` programs the annotator draws from `sketches` (2 threads).
inline std::vector<ansor::State> sample_programs(const ansor::PipelineDAG &dag, const std::vector<ansor::State> &sketches,
                                                 const Halide::Target &target, int count, uint64_t seed) {
    ansor::AnnotationOptions ao;
    ao.parallelism = 2;
    ansor::RandomAnnotator annotator(dag, target, ao);
    ansor::ProgramSampler sampler(sketches, annotator);
    std::mt19937_64 rng(seed);
    std::vector<ansor::State> programs;
    for (int i = 0; i < count; i++) {
        auto program = sampler.sample(rng);
        REQUIRE(program);
        programs.push_back(*program);
    }
    return programs;
}

}  // namespace ansor_test
