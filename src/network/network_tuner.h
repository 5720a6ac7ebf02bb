#pragma once
// Tunes the tasks of a task file together under one trial budget
// (ansor_tune_tasks; docs/tuning_networks.md). The task scheduler
// (src/scheduler/) hands out units, one unit = one tuning round of one task
// (HL_ANSOR_MEASURES_PER_ROUND measurements). Every measurement is appended
// to the tuning log, so that a plugin build with HL_ANSOR_LOG=<log>
// HL_ANSOR_TRIALS=0 applies the best program found, and a later run resumes:
// each task's logged trials count as spent units.
#include "network/network_tuner_settings.h"
#include "network/shared_cost_model.h"
#include "network/task_file.h"
#include "network/task_run.h"
#include "network/unit_csv.h"

#include <chrono>
#include <cstdio>
#include <memory>
#include <vector>

namespace ansor {

class NetworkTuner {
public:
    // Builds every task's pipeline, DAG and key. Throws UserError naming
    // the file and the task for a task that does not build, and for two
    // tasks that are the same pipeline.
    NetworkTuner(const TaskFile &file, const TuningSetup &setup, NetworkTunerSettings settings);
    ~NetworkTuner();
    NetworkTuner(const NetworkTuner &) = delete;
    NetworkTuner &operator=(const NetworkTuner &) = delete;

    // One line per task: generator, weight, GFLOP, family, key, params.
    void list(std::FILE *out = stdout) const;

    // Resumes from the log, then gives out units until the trial budget is
    // spent or every task is retired. Call once. Throws UserError for an
    // objective the task file lacks data for, an unusable pretraining set or
    // an unwritable CSV.
    void tune();

    // After tune(): every task's trials, failures, best and status; every
    // network's latency; the objective; with foresee, the programs passed on.
    void report(std::FILE *out = stdout) const;

    const std::vector<Task> &tasks() const { return tasks_; }
    int trials_this_run() const { return spent_now_; }
    double seconds_since_first_unit() const;

private:
    void start_sessions();
    int tune_unit(int task, int trials);
    void pass_on_best_programs(int task);
    void print_header() const;
    void print_progress(int task, int measured) const;

    TaskFile file_;
    TuningSetup setup_;
    NetworkTunerSettings settings_;
    SharedModelPool models_;
    std::vector<std::unique_ptr<TaskRun>> runs_;
    std::vector<Task> tasks_;
    std::unique_ptr<TaskScheduler> scheduler_;
    std::unique_ptr<UnitCsv> csv_;
    int spent_ = 0;      // trials the log held when tune() began
    int spent_now_ = 0;  // trials of this run
    std::chrono::steady_clock::time_point first_unit_;
};

}  // namespace ansor
