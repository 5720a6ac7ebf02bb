#include "kernel_cost_tiers.h"

#include "dag/pipeline_dag.h"
#include "default_schedule.h"
#include "measure/pipeline_runner.h"
#include "records/tuning_log.h"
#include "util/target.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>

namespace ansor_graph {

const char *const MeasuredKernelCosts::kScheduleName = "default (the executor's, for kernels without a record)";

struct LogKernelCosts::Impl {
    ansor::TuningLog log;
    KernelCostOptions options;
    std::map<std::string, std::optional<double>> by_key;
};

LogKernelCosts::LogKernelCosts(const std::string &log_path, const KernelCostOptions &options)
    : impl_(new Impl{ansor::TuningLog(log_path), options, {}}) {}
LogKernelCosts::~LogKernelCosts() = default;

std::optional<KernelCost> LogKernelCosts::cost(const KernelCall &call) {
    const std::string key = call.key();
    auto it = impl_->by_key.find(key);
    if (it == impl_->by_key.end()) {
        const Halide::Target target(impl_->options.target);
        ansor::GeneratorPipeline p = ansor::build_generator_pipeline(call.generator, call.params, target);
        ansor::PipelineDAG dag(p.outputs(), impl_->options.threads);
        std::optional<ansor::TuningRecord> best = impl_->log.best(dag, target);
        std::optional<double> ms;
        if (best && std::isfinite(best->min_ms)) ms = best->min_ms;
        it = impl_->by_key.emplace(key, ms).first;
    }
    if (!it->second) return std::nullopt;
    return KernelCost{*it->second, "log"};
}

std::optional<KernelCost> EpilogueSiblingCosts::cost(const KernelCall &call) {
    static const std::set<std::string> layers = {"conv2d_bias_act", "graph_conv2d_nchw", "depthwise_bias_act",
                                                 "dense_bias_act"};
    if (!layers.count(call.generator)) return std::nullopt;
    std::optional<KernelCost> best;
    for (const char *act : {"0", "1", "2", "6"})
        for (const char *residual : {"0", "1"}) {
            KernelCall sibling = call;
            sibling.params["act"] = act;
            if (call.params.count("residual")) sibling.params["residual"] = residual;
            else if (residual[0] == '1') continue;
            if (sibling.params == call.params) continue;
            if (auto c = log_.cost(sibling); c && (!best || c->ms < best->ms)) best = c;
        }
    if (best) best->source = "log sibling";
    return best;
}

MeasuredKernelCosts::MeasuredKernelCosts(const std::string &cache_path, const KernelCostOptions &options, int repeats)
    : cache_path_(cache_path), options_(options), repeats_(repeats) {
    if (cache_path_.empty()) return;
    std::ifstream in(cache_path_);
    if (!in) return;  // first run: no cache yet
    nlohmann::json j;
    try {
        in >> j;
    } catch (const nlohmann::json::exception &e) {
        throw GraphError(cache_path_ + ": the cost cache is not valid JSON: " + e.what());
    }
    if (!j.is_object() || j.value("format", "") != "ansor-kernel-costs" || !j.contains("costs") ||
        !j["costs"].is_object())
        throw GraphError(cache_path_ + ": not a kernel cost cache (format \"ansor-kernel-costs\" with \"costs\")");
    if (j.value("target", "") != options_.target || j.value("threads", 0) != options_.threads ||
        j.value("schedule", "") != kScheduleName) {
        std::fprintf(stderr,
                     "ansor: warning: %s was measured for another target, thread count or schedule; ignored\n",
                     cache_path_.c_str());
        return;
    }
    for (auto it = j["costs"].begin(); it != j["costs"].end(); ++it) {
        if (!it.value().is_number())
            throw GraphError(cache_path_ + ": cost of '" + it.key() + "' is not a number");
        ms_[it.key()] = it.value().get<double>();
    }
}

std::optional<KernelCost> MeasuredKernelCosts::cost(const KernelCall &call) {
    const std::string key = call.key();
    auto it = ms_.find(key);
    if (it != ms_.end()) return KernelCost{it->second, "measured"};
    const Halide::Target target(options_.target);
    ansor::GeneratorPipeline p = ansor::build_generator_pipeline(call.generator, call.params, target);
    ansor::PipelineDAG dag(p.outputs(), options_.threads);
    // Timed as the executor runs a kernel the log does not know.
    Halide::Pipeline scheduled = ansor::scheduled_pipeline(dag, nullptr);
    default_schedule(scheduled, dag, options_.threads);
    ansor::PipelineRunner runner(dag, scheduled, ansor::measurement_target(target));
    runner.compile();
    runner.run();  // warm-up
    double best = INFINITY;
    for (int i = 0; i < repeats_; i++) {
        auto t0 = std::chrono::steady_clock::now();
        runner.run();
        best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    ms_[key] = best;
    measured_++;
    save();
    return KernelCost{best, "measured"};
}

void MeasuredKernelCosts::save() const {
    if (cache_path_.empty()) return;
    nlohmann::json j = {{"format", "ansor-kernel-costs"},
                        {"target", options_.target},
                        {"threads", options_.threads},
                        {"schedule", kScheduleName},
                        {"costs", ms_}};
    const std::string tmp = cache_path_ + ".tmp";
    {
        std::ofstream out(tmp);
        out << j.dump(1) << "\n";
        if (!out) throw GraphError(cache_path_ + ": cannot write the cost cache");
    }
    std::rename(tmp.c_str(), cache_path_.c_str());
}

}  // namespace ansor_graph
