#pragma once
// A run resumed from its tuning log: the scheduler's view of the earlier
// runs rebuilt from each task's logged records.
#include "network/task_run.h"
#include "network/unit_csv.h"

#include <memory>
#include <vector>

namespace ansor {

struct LoggedUnit {
    int last_line;  // the log line of the unit's last record
    int task;
    double best;  // the task's best after the unit (+inf before a valid program)
};

// Each task's records, in file order, in units of `round` records (a task's
// last unit may be shorter); the units of all tasks in the order their last
// records were written.
std::vector<LoggedUnit> logged_units(const std::vector<std::unique_ptr<TaskRun>> &runs, int round);

// Appends to `csv` a row for each of `units` that a scheduler of its own
// (`objective`, `options`) would have given out, as the run that measured
// them would have written it (elapsed time unknown: 0).
void write_logged_unit_rows(UnitCsv &csv, const std::vector<LoggedUnit> &units,
                            const std::vector<std::unique_ptr<TaskRun>> &runs, const std::vector<Task> &tasks,
                            std::shared_ptr<const Objective> objective, const TaskSchedulerOptions &options);

}  // namespace ansor
