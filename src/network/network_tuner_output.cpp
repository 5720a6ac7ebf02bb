// NetworkTuner's printing: the task list, the line a run starts with, the
// state after each unit and the final report.
#include "network/network_tuner.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ansor {

namespace {

std::string ms_text(double ms) {
    if (!std::isfinite(ms)) return "-";
    char b[32];
    std::snprintf(b, sizeof b, "%.5g", ms);
    return b;
}

}  // namespace

void NetworkTuner::list(std::FILE *out) const {
    std::fprintf(out, "%-32s %-18s %6s %10s %-24s %-16s  %s\n", "task", "generator", "weight", "GFLOP", "family", "key",
                 "params");
    for (size_t i = 0; i < tasks_.size(); i++) {
        std::fprintf(out, "%-32s %-18s %6g %10.4f %-24s %-16s  %s\n", tasks_[i].name.c_str(),
                     file_.tasks[i].generator.c_str(), tasks_[i].weight, tasks_[i].flops / 1e9, tasks_[i].family.c_str(),
                     runs_[i]->key().hash.c_str(), generator_param_args(file_.tasks[i].params).c_str());
    }
}

void NetworkTuner::print_header() const {
    std::fprintf(stderr, "[tune] %s: %zu tasks, %zu networks; budget %d trials (%d in the log already), "
                         "units of %d; policy %s, objective %s, model %s, foresee %d; log %s\n",
                 file_.path.c_str(), tasks_.size(), file_.networks.size(), settings_.trials, spent_,
                 setup_.options.measures_per_round, schedule_policy_name(settings_.scheduler.policy),
                 network_objective_name(settings_.objective), model_grouping_name(settings_.models), settings_.foresee,
                 setup_.log.c_str());
}

void NetworkTuner::print_progress(int task, int measured) const {
    const double elapsed = seconds_since_first_unit();
    const int done = spent_ + spent_now_;
    const double left = spent_now_ > 0 ? elapsed / spent_now_ * std::max(0, settings_.trials - done) : 0;
    std::fprintf(stderr, "[tune] unit %d: %s +%d trials | objective %s %.6g | trials %d/%d | elapsed %.0f s, left ~%.0f s\n",
                 scheduler_->total_units(), tasks_[task].name.c_str(), measured,
                 network_objective_name(settings_.objective), scheduler_->objective_value(), done, settings_.trials,
                 elapsed, left);
    std::vector<double> nets = network_latencies(tasks_, scheduler_->best_latencies());
    for (size_t j = 0; j < nets.size(); j++)
        std::fprintf(stderr, "[tune]   network %-16s %s ms\n", file_.networks[j].name.c_str(), ms_text(nets[j]).c_str());
    for (int i = 0; i < (int)tasks_.size(); i++) {
        std::fprintf(stderr, "[tune]   %-28s w %-4g trials %4d  best %10s ms  %s%s\n", tasks_[i].name.c_str(),
                     tasks_[i].weight, runs_[i]->trials(), ms_text(scheduler_->best(i)).c_str(),
                     task_status_name(scheduler_->status(i)), i == task ? "  <" : "");
    }
}

void NetworkTuner::report(std::FILE *out) const {
    if (!scheduler_) throw std::logic_error("NetworkTuner::report before tune");
    std::fprintf(out, "%-28s %6s %6s %8s %12s %10s  %s\n", "task", "weight", "trials", "fail", "best ms", "status",
                 "family");
    for (int i = 0; i < (int)tasks_.size(); i++) {
        std::fprintf(out, "%-28s %6g %6d %8d %12s %10s  %s\n", tasks_[i].name.c_str(), tasks_[i].weight,
                     runs_[i]->trials(), runs_[i]->failures(), ms_text(scheduler_->best(i)).c_str(),
                     task_status_name(scheduler_->status(i)), tasks_[i].family.c_str());
    }
    std::vector<double> nets = network_latencies(tasks_, scheduler_->best_latencies());
    for (size_t j = 0; j < nets.size(); j++) {
        std::fprintf(out, "network %s: sum of weight x best latency = %s ms\n", file_.networks[j].name.c_str(),
                     ms_text(nets[j]).c_str());
    }
    std::fprintf(out, "objective %s = %.6g after %d units, %d trials (%d this run)\n",
                 network_objective_name(settings_.objective), scheduler_->objective_value(), scheduler_->total_units(),
                 spent_ + spent_now_, spent_now_);
    if (settings_.foresee > 0) {
        int moved = 0;
        for (const auto &r : runs_) moved += r->transferred_measured();
        std::fprintf(out, "foresee: %d measurements were programs passed on within a family\n", moved);
    }
}

}  // namespace ansor
