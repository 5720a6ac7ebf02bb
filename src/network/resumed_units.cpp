#include "network/resumed_units.h"

#include <algorithm>
#include <cmath>

namespace ansor {

std::vector<LoggedUnit> logged_units(const std::vector<std::unique_ptr<TaskRun>> &runs, int round) {
    std::vector<LoggedUnit> units;
    for (size_t i = 0; i < runs.size(); i++) {
        const auto &recs = runs[i]->logged();
        double best = INFINITY;
        for (size_t r = 0; r < recs.size(); r++) {
            if (recs[r].ok) best = std::min(best, recs[r].min_ms);
            if ((r + 1) % round == 0 || r + 1 == recs.size()) units.push_back({recs[r].line, (int)i, best});
        }
    }
    std::stable_sort(units.begin(), units.end(),
                     [](const LoggedUnit &a, const LoggedUnit &b) { return a.last_line < b.last_line; });
    return units;
}

void write_logged_unit_rows(UnitCsv &csv, const std::vector<LoggedUnit> &units,
                            const std::vector<std::unique_ptr<TaskRun>> &runs, const std::vector<Task> &tasks,
                            std::shared_ptr<const Objective> objective, const TaskSchedulerOptions &options) {
    TaskScheduler replay(tasks, std::move(objective), options);
    int trials_so_far = 0, unit = 0;
    std::vector<int> task_trials(tasks.size(), 0);
    for (const LoggedUnit &u : units) {
        if (replay.status(u.task) != TaskStatus::Active) continue;
        replay.report(u.task, u.best);
        int n = 0;
        for (const auto &r : runs[u.task]->logged()) n += r.line <= u.last_line;
        trials_so_far += n - task_trials[u.task];
        task_trials[u.task] = n;
        csv.row(++unit, u.task, n, trials_so_far, 0, replay);
    }
}

}  // namespace ansor
