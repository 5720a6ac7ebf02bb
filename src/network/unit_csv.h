#pragma once
// The CSV of a network tuning run (--csv): one row per unit with the task
// that had it, the task's trials, the trials in all, seconds since the run
// began, the objective, every network's latency and every task's best.
// Runs append to it; only a new (or empty) file gets the header.
#include "network/task_file.h"
#include "scheduler/task_scheduler.h"

#include <fstream>
#include <string>
#include <vector>

namespace ansor {

class UnitCsv {
public:
    // Throws UserError naming `path` when it cannot be written.
    UnitCsv(const std::string &path, const TaskFile &file, const std::vector<Task> &tasks);

    // Whether the file was new or empty before this run.
    bool fresh() const { return fresh_; }

    // The row of unit `unit`, given to task `task`, with the scheduler's
    // state after it.
    void row(int unit, int task, int task_trials, int total_trials, double elapsed_s, const TaskScheduler &scheduler);

private:
    std::vector<Task> tasks_;
    std::ofstream out_;
    bool fresh_;
};

}  // namespace ansor
