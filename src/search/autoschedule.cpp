#include "search/autoschedule.h"

#include "search/tuning_session.h"

namespace ansor {

AutoscheduleResult autoschedule(const std::vector<Halide::Internal::Function> &outputs, const Halide::Target &target,
                                int parallelism, const Options &options) {
    PipelineDAG dag(outputs, parallelism);
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
    return result;
}

}  // namespace ansor
