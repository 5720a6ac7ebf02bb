#include "halide_executor.h"

#include "default_schedule.h"

#include "dag/pipeline_dag.h"
#include "measure/pipeline_runner.h"
#include "records/tuning_log.h"
#include "util/target.h"

#include <algorithm>

namespace ansor_graph {

using Halide::Internal::Parameter;

struct GraphExecutor::Kernel {
    ansor::GeneratorPipeline generator;
    std::unique_ptr<ansor::PipelineDAG> dag;
    Halide::Pipeline pipeline;
    Halide::Target run_target;
    std::map<std::string, Parameter> params;  // buffer inputs by generator input name
};

struct GraphExecutor::Step {
    Kernel *kernel = nullptr;
    std::vector<std::pair<Parameter, Halide::Buffer<>>> inputs;
    std::vector<Halide::Buffer<>> output;  // one buffer, as Realization wants a vector
    bool on_weights = false;               // made by bind(), not by run()

    void realize() {
        for (auto &[param, buf] : inputs) param.set_buffer(buf);
        Halide::Realization r(output);
        kernel->pipeline.realize(r, kernel->run_target);
    }
};

GraphExecutor::GraphExecutor(const Graph &g, const ExecutorOptions &options) : graph_(g), lowered_(lower_graph(g)) {
    const Halide::Target target(options.target);
    std::unique_ptr<ansor::TuningLog> log;
    if (!options.log_path.empty()) log = std::make_unique<ansor::TuningLog>(options.log_path);
    std::map<std::string, size_t> by_key;
    for (const KernelCall &call : lowered_.calls) {
        const std::string key = call.key();
        auto it = by_key.find(key);
        if (it != by_key.end()) {
            KernelReport &r = reports_[it->second];
            (call.on_weights ? r.load_calls : r.calls)++;
            if (std::find(r.nodes.begin(), r.nodes.end(), call.node) == r.nodes.end()) r.nodes.push_back(call.node);
            continue;
        }
        by_key[key] = reports_.size();
        KernelReport report;
        report.key = key;
        report.nodes = {call.node};
        (call.on_weights ? report.load_calls : report.calls) = 1;
        auto k = std::make_unique<Kernel>();
        try {
            k->generator = ansor::build_generator_pipeline(call.generator, call.params, target);
            k->dag = std::make_unique<ansor::PipelineDAG>(k->generator.outputs(), options.threads);
            std::optional<ansor::TuningRecord> best;
            if (log) best = log->best(*k->dag, target);
            // A deep copy scheduled by the record (or at root): the
            // generator's own Funcs stay unscheduled, as the DAG expects.
            k->pipeline = ansor::scheduled_pipeline(*k->dag, best ? &*best->state : nullptr);
            if (best) {
                report.source = "log";
                report.logged_ms = best->min_ms;
            } else {
                report.source = "default";
                default_schedule(k->pipeline, *k->dag, options.threads);
            }
            for (const ansor::InputInfo &in : k->dag->inputs()) {
                if (in.dimensions == 0) throw GraphError("scalar parameter '" + in.name + "' is not supported");
                k->params[in.name] = in.param;
            }
            k->run_target = ansor::measurement_target(target);
            k->pipeline.compile_jit(k->run_target);
        } catch (const GraphError &e) {
            throw GraphError("node '" + call.node + "': kernel " + key + ": " + e.what());
        } catch (const std::exception &e) {
            throw GraphError("node '" + call.node + "': kernel " + key + ": " + e.what());
        }
        kernels_.push_back(std::move(k));
        reports_.push_back(report);
    }
}

GraphExecutor::~GraphExecutor() = default;

size_t GraphExecutor::call_count() const { return lowered_.calls.size() - load_call_count(); }

size_t GraphExecutor::load_call_count() const {
    return std::count_if(lowered_.calls.begin(), lowered_.calls.end(), [](const KernelCall &c) { return c.on_weights; });
}

void GraphExecutor::bind(const TensorMap &declared) {
    tensors_.clear();
    for (const auto &[name, info] : graph_.tensors) {
        if (lowered_.aliases.count(name)) continue;
        Tensor t = make_tensor(info.shape);
        auto it = declared.find(name);
        if (info.kind != TensorKind::kIntermediate) {
            if (it == declared.end() || it->second.shape != info.shape)
                throw GraphError("no value of shape " + shape_string(info.shape) + " given for '" + name + "'");
            std::copy(it->second.storage->begin(), it->second.storage->end(), t.storage->begin());
        }
        tensors_[name] = t;
    }
    for (const auto &[name, target] : lowered_.aliases) {
        Tensor t = tensors_.at(target);
        t.shape = graph_.tensor(name).shape;
        tensors_[name] = t;
    }
    for (const auto &[name, shape] : lowered_.zero_tensors) tensors_[name] = make_tensor(shape);

    auto buffer = [&](const View &v) {
        float *base = tensors_.at(v.tensor).data() + v.offset;
        return Halide::Buffer<>(Halide::Buffer<float>(base, (int)v.dims.size(), v.dims.data()));
    };
    steps_.clear();
    std::map<std::string, Kernel *> by_key;
    for (size_t i = 0, k = 0; i < lowered_.calls.size(); i++) {
        const KernelCall &call = lowered_.calls[i];
        if (!by_key.count(call.key())) by_key[call.key()] = kernels_[k++].get();
        auto s = std::make_unique<Step>();
        s->kernel = by_key.at(call.key());
        for (const auto &[name, view] : call.inputs) {
            auto p = s->kernel->params.find(name);
            // An input the pipeline never reads is not among its parameters.
            if (p != s->kernel->params.end()) s->inputs.push_back({p->second, buffer(view)});
        }
        for (const auto &[name, param] : s->kernel->params) {
            bool bound = std::any_of(call.inputs.begin(), call.inputs.end(), [&](const auto &x) { return x.first == name; });
            if (!bound) throw GraphError("node '" + call.node + "': kernel " + call.key() + " reads input '" + name + "' the lowering does not bind");
        }
        s->output.push_back(buffer(call.output));
        s->on_weights = call.on_weights;
        steps_.push_back(std::move(s));
    }
    // Weights are bound: derive the kernels that depend on them alone.
    for (auto &s : steps_) {
        if (s->on_weights) s->realize();
    }
}

void GraphExecutor::run() {
    if (steps_.empty() && !lowered_.calls.empty()) throw GraphError("GraphExecutor::run before bind");
    for (auto &s : steps_) {
        if (!s->on_weights) s->realize();
    }
    windows_stale_ = true;
}

const TensorMap &GraphExecutor::tensors() const {
    if (!windows_stale_) return tensors_;
    for (const auto &[part, window] : lowered_.windows) {
        auto whole = tensors_.find(window.tensor), dense = tensors_.find(part);
        if (whole == tensors_.end() || dense == tensors_.end()) continue;  // before bind()
        // Walk the part in its own (dense) order, reading the window.
        Halide::Buffer<float> from(whole->second.data() + window.offset, (int)window.dims.size(), window.dims.data());
        float *to = dense->second.data();
        from.for_each_element([&](const int *pos) {
            int64_t i = 0, stride = 1;
            for (size_t d = 0; d < window.dims.size(); d++) {
                i += (int64_t)pos[d] * stride;
                stride *= window.dims[d].extent;
            }
            to[i] = from(pos);
        });
    }
    windows_stale_ = false;
    return tensors_;
}

}  // namespace ansor_graph
