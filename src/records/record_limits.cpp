#include "records/record_limits.h"

#include "records/canonical_steps.h"

#include <map>
#include <string>

namespace ansor {

namespace {

std::string factors_text(const std::vector<int64_t> &factors) {
    std::string s = "[";
    for (size_t i = 0; i < factors.size(); i++) s += (i ? ", " : "") + std::to_string(factors[i]);
    return s + "]";
}

void check_steps_per_func(const std::map<std::string, size_t> &steps_of) {
    for (const auto &[func, count] : steps_of) {
        if (count > kMaxStepsPerFunc) {
            throw RecordOutOfRange("'" + func + "' has " + std::to_string(count) + " steps (at most " +
                                   std::to_string(kMaxStepsPerFunc) + ")");
        }
    }
}

void check_split(const SplitStep &split, const LoopNest &m) {
    const ModelStage &stage = m.stage(split.func(), split.stage);
    const int at = stage.find(split.loop);
    if (at < 0) return;  // replay says so
    const std::string what = "split of '" + split.loop + "' in '" + split.func() + "' by " + factors_text(split.factors);
    if (stage.loops.size() + split.factors.size() > kMaxLoopsPerStage) {
        throw RecordOutOfRange(what + " nests more than " + std::to_string(kMaxLoopsPerStage) + " loops");
    }
    const int64_t extent = stage.loops[at].extent;
    const int64_t most = extent > 0 ? 2 * extent + kTileRoundingSlack : kMaxTileOfUnknownExtent;
    int64_t covered = 1;
    for (int64_t f : split.factors) {
        if (f < 1) throw RecordOutOfRange(what + ": a factor below 1");
        if (f > most || covered > most / f) {
            throw RecordOutOfRange(what + " covers more than " + std::to_string(most) + " iterations of a loop of " +
                                   (extent > 0 ? std::to_string(extent) : std::string("unknown extent")));
        }
        covered *= f;
    }
}

void check_annotation(const AnnotateStep &a, const LoopNest &m) {
    const ModelStage &stage = m.stage(a.func(), a.stage);
    const int at = stage.find(a.loop);
    if (at < 0) return;
    const int64_t extent = stage.loops[at].extent;
    const int64_t most = a.annotation == Annotation::Vectorize ? kMaxVectorLanes
                         : a.annotation == Annotation::Unroll  ? kMaxUnrolledExtent
                                                               : -1;
    if (most >= 0 && extent > most) {
        throw RecordOutOfRange(a.kind() + " of '" + a.loop + "' in '" + a.func() + "', a loop of " +
                               std::to_string(extent) + " (at most " + std::to_string(most) + ")");
    }
}

void check_step(const Step &step, const LoopNest &m) {
    if (const auto *split = step.as<SplitStep>()) check_split(*split, m);
    if (const auto *annotation = step.as<AnnotateStep>()) check_annotation(*annotation, m);
    if (const auto *unroll = step.as<AutoUnrollStep>()) {
        if (unroll->max_step < 0 || unroll->max_step > kMaxAutoUnrollStep) {
            throw RecordOutOfRange("auto_unroll of '" + unroll->func() + "' with max_step " +
                                   std::to_string(unroll->max_step) + " (0 to " + std::to_string(kMaxAutoUnrollStep) +
                                   ")");
        }
    }
}

}  // namespace

State state_within_record_limits(const PipelineDAG &dag, const CanonicalNames &names, const nlohmann::json &steps) {
    // Counted first: reading steps derives a loop name per split, and
    // thousands of nested splits would make names of thousands of characters.
    std::map<std::string, size_t> steps_of;
    if (steps.is_array()) {
        for (const nlohmann::json &s : steps) {
            if (s.is_object() && s.contains("func") && s["func"].is_string()) steps_of[s["func"].get<std::string>()]++;
        }
    }
    check_steps_per_func(steps_of);
    State state = state_from_canonical_steps(dag, names, steps);
    replay_within_record_limits(state);
    return state;
}

LoopNest replay_within_record_limits(const State &state) {
    std::map<std::string, size_t> steps_of;
    for (const FuncSteps &g : state.groups()) steps_of[g.func] = g.steps.size();
    check_steps_per_func(steps_of);
    LoopNest m(state.dag());
    // State::replay's order: every step as the State holds them, deferred ones last.
    for (bool deferred : {false, true}) {
        for (const StepPtr &s : state.steps()) {
            if (s->deferred() != deferred) continue;
            check_step(*s, m);
            s->replay(m);
        }
    }
    return m;
}

}  // namespace ansor
