// Helpers for tests of how drawn programs lower to Halide: the tails their
// splits get and the auto-unroll steps a vectorised stage may draw.
#pragma once

#include "annotate/random_annotator.h"
#include "state/state.h"
#include "state/steps.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ansor_test {

// The tail strategies of `func`'s splits, in the order the program lowers them.
inline std::vector<Halide::TailStrategy> split_tails(const ansor::State &s, const std::string &func) {
    std::vector<Halide::TailStrategy> tails;
    for (const ansor::Directive &d : s.lower()) {
        if (d.kind == ansor::Directive::Kind::Split && d.func == func) tails.push_back(d.tail);
    }
    return tails;
}

// The auto-unroll steps `annotator` may draw for `func` (stage 0, at root,
// every other Func inlined) with its x split by `width` and the inner piece
// vectorised.
inline std::vector<int> auto_unroll_choices_for_vector_width(const ansor::PipelineDAG &dag,
                                                             const ansor::RandomAnnotator &annotator,
                                                             const std::string &func, int64_t width) {
    using namespace ansor;
    State s(dag);
    for (const Node &n : dag.nodes()) {
        if (n.name != func) s.add(std::make_shared<ComputeLocationStep>(n.name, Location{LocationKind::Inline, "", 0, ""}));
    }
    s.add(std::make_shared<SplitStep>(func, 0, "x", std::vector<int64_t>{width}));
    s.add(std::make_shared<AnnotateStep>(func, 0, "x_1", Annotation::Vectorize));
    return annotator.auto_unroll_choices(s.replay(), func, 0);
}

}  // namespace ansor_test
