#pragma once
// The kernel cost providers of the graph optimiser (graph_cost.h), in the
// order ansor_graph_optimize chains them:
//
//   LogKernelCosts       the tuning log's best time for the kernel's pipeline
//                        key on the target (the record the executor would
//                        apply: TuningLog::best, as ansor_network_run does);
//   EpilogueSiblingCosts a layer the log does not know, priced by the log's
//                        time for the same layer with another epilogue
//                        (fused activation, residual addition);
//   MeasuredKernelCosts  the kernel compiled with the executor's default
//                        schedule (default_schedule.h: what the executor runs
//                        for a kernel the log does not know) and timed once:
//                        the best of a few runs after a warm-up. Kept in
//                        memory and, with a cache file, on disk, so that a
//                        kernel is measured once across runs.
//
// ConstantKernelCosts prices every kernel alike (the search then minimises
// the number of kernel calls); ansor_graph_optimize --default-cost-ms uses it
// in place of measuring, for runs that must not time anything.
//
// There is no cost-model tier: the shipped cost model ranks the programs of
// one pipeline but does not predict milliseconds, so its scores cannot be
// added across kernels.
#include "graph_cost.h"
#include "util/target.h"

namespace ansor_graph {

struct KernelCostOptions {
    std::string target = ansor::project_cpu_target();
    int threads = 2;  // the DAG's parallelism, so that the log's records for this thread count apply
};

class LogKernelCosts : public KernelCostProvider {
public:
    LogKernelCosts(const std::string &log_path, const KernelCostOptions &options);
    ~LogKernelCosts() override;
    std::optional<KernelCost> cost(const KernelCall &call) override;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// A conv2d_bias_act, graph_conv2d_nchw, depthwise_bias_act or dense_bias_act call without a
// record of its own costs the best logged time of the same layer with
// another `act` or `residual` (its siblings). The epilogue is a few
// operations per output against the layer's reduction, so a tuned sibling
// says more about the layer than its default schedule does; without this,
// a graph search after a round of tuning compares the tuned kernels of the
// graph that was tuned against untuned siblings and keeps whichever
// epilogues the first round happened to choose.
class EpilogueSiblingCosts : public KernelCostProvider {
public:
    explicit EpilogueSiblingCosts(LogKernelCosts &log) : log_(log) {}
    std::optional<KernelCost> cost(const KernelCall &call) override;

private:
    LogKernelCosts &log_;
};

class ConstantKernelCosts : public KernelCostProvider {
public:
    explicit ConstantKernelCosts(double ms) : ms_(ms) {}
    std::optional<KernelCost> cost(const KernelCall &) override { return KernelCost{ms_, "constant"}; }

private:
    double ms_;
};

class MeasuredKernelCosts : public KernelCostProvider {
public:
    // cache_path empty: in memory only. A cache written for another target,
    // thread count or schedule is ignored (with a warning on stderr).
    MeasuredKernelCosts(const std::string &cache_path, const KernelCostOptions &options, int repeats = 5);
    // The schedule timed, as the cache file's "schedule" names it (a cache
    // of another schedule's times is ignored).
    static const char *const kScheduleName;
    std::optional<KernelCost> cost(const KernelCall &call) override;
    int measured() const { return measured_; }  // kernels timed by this object

private:
    void save() const;
    std::string cache_path_;
    KernelCostOptions options_;
    int repeats_;
    int measured_ = 0;
    std::map<std::string, double> ms_;  // by pipeline key (KernelCall::key)
};

}  // namespace ansor_graph
