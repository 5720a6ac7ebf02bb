#pragma once
// How a NetworkTuner tunes, besides the task file and the TuningSetup
// (ansor_tune_tasks' flags: docs/tuning_networks.md).
#include "network/families.h"
#include "network/network_objective.h"
#include "scheduler/task_scheduler.h"
#include "search/tuning_session.h"

#include <functional>
#include <optional>
#include <string>

namespace ansor {

class TaskRun;

// Whose programs a cost model learns from: its task's own, its family's
// (FamilySeer) or every task's (Ansor's single model).
enum class ModelGrouping { PerTask, Family, Monolithic };

// Each parse_* throws UserError naming `name` and the choices.
ModelGrouping parse_model_grouping(const std::string &name);
const char *model_grouping_name(ModelGrouping grouping);
SchedulePolicy parse_schedule_policy(const std::string &name);
const char *schedule_policy_name(SchedulePolicy policy);

using MeasurerFactory = decltype(SessionParts::make_measurer);
// The measurer factory of task number `task`, built as `run` (e.g. one
// that sends its candidates to other machines); an empty factory leaves
// the session's own.
using TaskMeasurers = std::function<MeasurerFactory(int task, const TaskRun &run)>;

struct NetworkTunerSettings {
    int trials = 0;  // measurements in all, the log's included
    NetworkObjective objective = NetworkObjective::F1;
    ModelGrouping models = ModelGrouping::PerTask;
    FamilyRule families = FamilyRule::Generator;  // for tasks without a "family"
    int foresee = 0;  // each unit's K fastest new programs go to the other tasks of its family
    // Units a task may take without improvement before it is retired;
    // unset: 4 with f4, else 0 (never).
    std::optional<int> early_stopping;
    // The scheduler's policy, seed and gradient settings; its early_stopping
    // is replaced by the field above.
    TaskSchedulerOptions scheduler;
    std::string csv;       // a CSV of the units, "" for none
    bool progress = true;  // the state after every unit, on stderr
    TaskMeasurers measurers;
};

// settings.scheduler with early stopping decided; throws UserError for f4
// without early stopping.
TaskSchedulerOptions scheduler_options(const NetworkTunerSettings &settings);

}  // namespace ansor
