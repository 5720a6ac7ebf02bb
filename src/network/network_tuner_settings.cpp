#include "network/network_tuner_settings.h"

#include "util/errors.h"

namespace ansor {

ModelGrouping parse_model_grouping(const std::string &name) {
    if (name == "per-task") return ModelGrouping::PerTask;
    if (name == "family") return ModelGrouping::Family;
    if (name == "monolithic") return ModelGrouping::Monolithic;
    throw UserError("unknown model grouping '" + name + "' (use per-task, family or monolithic)");
}

const char *model_grouping_name(ModelGrouping grouping) {
    switch (grouping) {
    case ModelGrouping::PerTask: return "per-task";
    case ModelGrouping::Family: return "family";
    case ModelGrouping::Monolithic: return "monolithic";
    }
    return "?";
}

SchedulePolicy parse_schedule_policy(const std::string &name) {
    if (name == "gradient") return SchedulePolicy::Gradient;
    if (name == "round-robin") return SchedulePolicy::RoundRobin;
    throw UserError("unknown scheduling policy '" + name + "' (use gradient or round-robin)");
}

const char *schedule_policy_name(SchedulePolicy policy) {
    return policy == SchedulePolicy::Gradient ? "gradient" : "round-robin";
}

TaskSchedulerOptions scheduler_options(const NetworkTunerSettings &settings) {
    TaskSchedulerOptions options = settings.scheduler;
    const bool f4 = settings.objective == NetworkObjective::F4;
    options.early_stopping = settings.early_stopping.value_or(f4 ? 4 : 0);
    if (f4 && options.early_stopping == 0) throw UserError("objective f4 needs early stopping after 1 or more units");
    return options;
}

}  // namespace ansor
