#include "search/autoschedule.h"

#include "search/tuning_session.h"

#include <cstdio>

namespace ansor {

AutoscheduleResult autoschedule(const std::vector<Halide::Internal::Function> &outputs, const Halide::Target &target,
                                int parallelism, const Options &options) {
    PipelineDAG dag(outputs, parallelism);
    for (const std::string &w : dag.warnings()) std::fprintf(stderr, "[ansor] warning: %s\n", w.c_str());
    TuningSession session(dag, target, options);
    if (session.settings().tuner.trials > 0) session.tune();
    SessionChoice choice = session.choose();
    choice.state.apply(dag.env());
    AutoscheduleResult result;
    result.schedule_source = choice.source;
    result.measured = choice.how.measured;
    result.from_log = choice.how.from_log;
    result.best_ms = choice.how.best_ms;
    result.trials = choice.how.trials;
    result.failures = choice.how.failures;
    result.not_measured_because = choice.how.not_measured_because;
    result.warnings = dag.warnings();
    return result;
}

}  // namespace ansor
