#pragma once
// Runs a whole graph as one program of Halide pipelines: every kernel call
// of the lowered graph (op_lowering.h) runs a JIT-compiled generator
// pipeline on views of real tensors, each output the next call's input.
// Each distinct (generator, params) is built and compiled once, scheduled
// by the best program of a tuning log for its pipeline key if the log has
// one (the lookup ansor_network_latency does), else by the default schedule
// (every Func at root; in each, the outermost loop of more than one
// iteration parallel and the innermost vectorized). Calls that read weights
// only are weight preparation: bind() makes them once, run() does not.
#include "op_lowering.h"
#include "tensor_values.h"
#include "util/target.h"

#include <memory>

namespace ansor_graph {

struct ExecutorOptions {
    std::string target = ansor::project_cpu_target();
    std::string log_path;  // empty: default schedules only
    int threads = 2;       // the DAGs' parallelism, so the log's records for this thread count apply
};

// What one compiled pipeline got.
struct KernelReport {
    std::string key;                 // generator and params
    std::vector<std::string> nodes;  // graph nodes it runs for (in order, repeats removed)
    int calls = 0;                   // kernel calls per whole-network run
    int load_calls = 0;              // calls on weights only, made once by bind()
    std::string source;              // "log" or "default"
    double logged_ms = 0;            // the log's time for it, where source is "log"
};

class GraphExecutor {
public:
    // Lowers and compiles; throws GraphError naming the node and kernel.
    // `g` must outlive the executor.
    GraphExecutor(const Graph &g, const ExecutorOptions &options);
    ~GraphExecutor();
    // Allocates every tensor; `declared` holds the graph's inputs and weights
    // (declared_values()); they are copied in, and the calls on weights only
    // (KernelCall::on_weights: derived kernels) are made, once.
    void bind(const TensorMap &declared);
    // One whole-network run: every call but those bind() made.
    void run();
    // Every tensor, after run(): inputs, weights, intermediates, outputs
    // (a part kept inside its concat or split, LoweredGraph::windows, is
    // gathered from its window here, not in run()).
    const TensorMap &tensors() const;
    const std::vector<KernelReport> &kernels() const { return reports_; }
    size_t call_count() const;       // per run
    size_t load_call_count() const;  // made by bind()

private:
    struct Kernel;
    struct Step;
    const Graph &graph_;
    LoweredGraph lowered_;
    std::vector<std::unique_ptr<Kernel>> kernels_;
    std::vector<std::unique_ptr<Step>> steps_;
    std::vector<KernelReport> reports_;
    mutable TensorMap tensors_;
    mutable bool windows_stale_ = true;
};

}  // namespace ansor_graph
