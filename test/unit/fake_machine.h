#pragma once
// A fake machine for the cost-model tests: programs of real pipelines,
// sampled as the search samples them, given made-up times that depend on
// their schedules in a known way (wider vectors and a parallel loop are
// faster), so that a model's ranking can be checked without measuring.
#include "annotate/random_annotator.h"
#include "measure/measurer.h"
#include "search/program_sampler.h"
#include "sketch/sketch_generator.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace ansor_test {

using namespace ansor;

inline Halide::Target fake_machine_target() {
    return Halide::Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");
}

// Share of pairs with different labels that the scores order the same way.
inline double pairwise_accuracy(const std::vector<double> &labels, const std::vector<double> &scores) {
    long right = 0, pairs = 0;
    for (size_t i = 0; i < labels.size(); i++) {
        for (size_t j = 0; j < i; j++) {
            if (labels[i] == labels[j]) continue;
            pairs++;
            right += (labels[i] > labels[j]) == (scores[i] > scores[j]);
        }
    }
    REQUIRE(pairs > 0);
    return (double)right / pairs;
}

// The widest vectorized loop in the last stage of any computed Func (1 if none).
inline int64_t vector_lanes(const State &s) {
    LoopNest m = s.replay();
    int64_t lanes = 1;
    for (const auto &f : m.funcs()) {
        if (f.location.kind == LocationKind::Inline) continue;
        for (const auto &l : f.stages.back().loops) {
            if (l.annotation == Annotation::Vectorize) lanes = std::max(lanes, l.extent);
        }
    }
    return lanes;
}

inline bool has_parallel(const State &s) {
    LoopNest m = s.replay();
    for (const auto &f : m.funcs()) {
        for (const auto &st : f.stages) {
            for (const auto &l : st.loops) {
                if (l.annotation == Annotation::Parallel) return true;
            }
        }
    }
    return false;
}

// A fake machine: wider vectors (up to 16 lanes) and a parallel loop are faster.
inline double fake_ms(const State &s) {
    return 16.0 / (double)std::min<int64_t>(16, vector_lanes(s)) * (has_parallel(s) ? 1 : 2);
}

inline std::vector<State> sample(ProgramSampler &sampler, int n, std::mt19937_64 &rng) {
    std::vector<State> out;
    while ((int)out.size() < n) {
        auto s = sampler.sample(rng);
        REQUIRE(s);
        out.push_back(*s);
    }
    return out;
}

// Programs of an n³ matmul, sampled as the search samples them: 200 to train on, 100 to test.
struct MatmulPrograms {
    Pipe pipe;
    PipelineDAG dag{pipe.functions(), 2};
    RandomAnnotator annotator{dag, fake_machine_target(), annotation_options()};
    ProgramSampler sampler{generate_sketches({dag, fake_machine_target()}), annotator};
    std::vector<State> train, test;

    explicit MatmulPrograms(uint64_t seed, int n = 64) : pipe(make_matmul(n)) {
        std::mt19937_64 rng(seed);
        train = sample(sampler, 200, rng);
        test = sample(sampler, 100, rng);
    }
    static AnnotationOptions annotation_options() {
        AnnotationOptions ao;
        ao.parallelism = 2;
        return ao;
    }
};

// Measurements on the fake machine of fake_ms; every 25th program crashed
// (failures train too, as throughput 0).
inline std::vector<MeasureResult> fake_results(const std::vector<State> &states) {
    std::vector<MeasureResult> results(states.size());
    for (size_t i = 0; i < states.size(); i++) {
        results[i].ok = true;
        results[i].min_ms = results[i].median_ms = fake_ms(states[i]);
    }
    for (size_t i = 0; i < states.size(); i += 25) results[i] = MeasureResult{false, "crashed"};
    return results;
}

inline std::vector<double> fake_throughputs(const std::vector<State> &states) {
    std::vector<double> out;
    for (const auto &s : states) out.push_back(1.0 / fake_ms(s));
    return out;
}

}  // namespace ansor_test
