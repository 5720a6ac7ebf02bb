// The auto-unroll limits of RandomAnnotator: which stages unroll little
// (reads through boundary clamps, partial or widened vectors, large
// inlined bodies), the largest step each may take, and the trimming of
// steps a finished program exceeds.
#include "annotate/random_annotator.h"

#include "annotate/inlined_bodies.h"
#include "state/steps.h"

#include <algorithm>
#include <limits>

namespace ansor {

void RandomAnnotator::limit_unroll_steps(State &program, const LoopNest &m) const {
    std::vector<std::string> names;
    for (const FuncSteps &g : program.groups()) names.push_back(g.func);
    for (const std::string &name : names) {
        auto &steps = program.group(name).steps;
        for (size_t i = 0; i < steps.size(); i++) {
            const auto *unroll = steps[i]->as<AutoUnrollStep>();
            if (!unroll) continue;
            const int64_t cap = max_unroll_step(m, name, unroll->stage);
            if (unroll->max_step <= cap) continue;
            int largest_allowed = 0;
            for (int step : options_.auto_unroll_steps) {
                if (step <= cap) largest_allowed = std::max(largest_allowed, step);
            }
            if (largest_allowed > 0) {
                steps[i] = std::make_shared<AutoUnrollStep>(name, unroll->stage, largest_allowed);
            } else {
                steps.erase(steps.begin() + (long)i--);
            }
        }
    }
}

bool RandomAnnotator::reads_through_boundary(const LoopNest &m, const std::string &func,
                                             const std::vector<bool> &boundary_nodes) const {
    const std::optional<int> node = dag_node_of(m.func(func));
    if (!node) return false;
    if (boundary_nodes[*node]) return true;
    const std::vector<bool> inlined = dag_.inlined_into(*node, m.inlined_nodes());
    for (size_t k = 0; k < inlined.size(); k++) {
        if (inlined[k] && boundary_nodes[k]) return true;
    }
    return false;
}

bool RandomAnnotator::unrolls_little(const LoopNest &m, const std::string &func, int stage) const {
    if (reads_through_boundary(m, func, has_likely_)) return true;
    // On a GPU also a select on the coordinates (constant_exterior): the
    // operator suite's capsule convolution, its reduction unrolled 512 steps
    // inside six fused thread coordinates, took 70-160 s to lower (under 5 s
    // unrolled 16).
    if (gpu_ && reads_through_boundary(m, func, selects_on_coordinates_)) return true;
    // A body that inlined producers have made large: every unrolled copy
    // repeats it. nl_means's `sums` with its patch distances inlined holds
    // 294 calls; its zero-shot program unrolled 112 copies of it (auto-unroll
    // 512) and did not compile within 120 s.
    const ModelFunc &f = m.func(func);
    const std::optional<int> node = dag_node_of(f);
    if (node && dag_.inlined_call_count(*node, m.inlined_nodes()) > kMaxCallsToUnrollFreely) return true;
    // A vector of a width that is not a whole number of native vectors
    // (59 floats) is cut into pieces by LLVM in every unrolled copy (fuzz
    // seed 77: a matrix product's 59-wide tile unrolled 512 steps compiled
    // past 60 s, in 3.3 s unrolled 16), and one narrower than half a native
    // vector is widened in every copy (seed 368: a matrix product's 2-wide
    // tile unrolled 512 steps compiled past 60 s, in 12 s unrolled 64, in
    // 4.8 s unrolled 16, and in 12 s unvectorised).
    if (stage < 0 || stage >= (int)f.stages.size() || f.stages[stage].loops.empty()) return false;
    const ModelLoop &inner = f.stages[stage].loops.back();
    const int64_t native = vector_width(f.dag_index >= 0 ? func : f.created_from);
    if (inner.annotation != Annotation::Vectorize) return false;
    // A width Halide cannot vectorise stays a scalar loop
    // (vector_width_breaks_codegen), which every unrolled copy repeats (seed
    // 110: a matrix product's 9-wide tile unrolled 3 x 48 x 3 around a
    // guarded reduction, past 60 s; unrolled 16, 2.9 s).
    const int output_bytes = widest_type_bytes(m, func);
    if (inner.constant_extent && vector_width_breaks_codegen(inner.extent, output_bytes)) return true;
    // A body that widens its values (a uint8 Func computed in uint32) splits
    // each vector into several of the wider type, with shuffles to widen and
    // narrow them, in every unrolled copy (fuzz seed 31: a uint8 stencil
    // computed in uint32, 64 lanes unrolled 464 times, compiled past 60 s).
    const int computed_bytes = node ? dag_.inlined_widest_value_bytes(*node, m.inlined_nodes()) : output_bytes;
    const int64_t computed_lanes = std::max(1, target_.natural_vector_size(Halide::UInt(8)) / computed_bytes);
    if (computed_bytes > output_bytes && inner.constant_extent &&
        inner.extent > kMaxWidenedVectorsToUnrollFreely * computed_lanes) {
        return true;
    }
    return (inner.extent > native && inner.extent % native != 0) || 2 * inner.extent < native;
}

int64_t RandomAnnotator::max_unroll_step(const LoopNest &m, const std::string &func, int stage) const {
    if (!unrolls_little(m, func, stage)) return std::numeric_limits<int64_t>::max();
    int64_t cap = kMaxUnrollThroughBoundary;
    const std::optional<int> node = dag_node_of(m.func(func));
    if (node) {
        const int64_t clamped = calls_through_boundaries(dag_, *node, m.inlined_nodes(), has_likely_);
        if (clamped > 0) cap = std::min(cap, kMaxUnrolledCallsThroughBoundaries / clamped);
    }
    return cap;
}

std::vector<int> RandomAnnotator::auto_unroll_choices(const LoopNest &m, const std::string &func, int stage) const {
    const int64_t cap = max_unroll_step(m, func, stage);
    std::vector<int> out;
    for (int step : options_.auto_unroll_steps) {
        if (step <= cap) out.push_back(step);
    }
    return out;
}

}  // namespace ansor
