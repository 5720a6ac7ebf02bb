#include "network/unit_csv.h"

#include "util/errors.h"

#include <sys/stat.h>

namespace ansor {

namespace {

bool file_is_empty(const std::string &path) {
    struct stat st;
    return stat(path.c_str(), &st) != 0 || st.st_size == 0;
}

}  // namespace

UnitCsv::UnitCsv(const std::string &path, const TaskFile &file, const std::vector<Task> &tasks)
    : tasks_(tasks), fresh_(file_is_empty(path)) {
    out_.open(path, std::ios::app);
    if (!out_) throw UserError("cannot write " + path);
    if (!fresh_) return;
    out_ << "unit,task,task_trials,total_trials,elapsed_s,objective";
    for (const auto &n : file.networks) out_ << ",network:" << n.name;
    for (const auto &t : tasks_) out_ << ",best_ms:" << t.name;
    out_ << "\n";
    out_.flush();
}

void UnitCsv::row(int unit, int task, int task_trials, int total_trials, double elapsed_s,
                  const TaskScheduler &scheduler) {
    out_ << unit << "," << tasks_[task].name << "," << task_trials << "," << total_trials << "," << elapsed_s << ","
         << scheduler.objective_value();
    for (double n : network_latencies(tasks_, scheduler.best_latencies())) out_ << "," << n;
    for (int i = 0; i < (int)tasks_.size(); i++) out_ << "," << scheduler.best(i);
    out_ << "\n";
    out_.flush();
}

}  // namespace ansor
