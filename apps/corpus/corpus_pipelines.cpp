#include "corpus_pipelines.h"

#include "app_pipelines.h"
#include "random_pipeline.h"
#include "shapes.h"
#include "suite_pipelines.h"
#include "util/errors.h"
#include "util/splitmix.h"

#include <set>

namespace ansor_corpus {

namespace {

using ansor::splitmix64;

PipelineSpec spec_of(const std::string &generator, const ansor_ops::Shape &shape) {
    PipelineSpec s;
    s.generator = generator;
    for (const ansor_ops::Param &p : shape) s.params[p.name] = p.value;
    return s;
}

class RandomBuilt : public BuiltPipeline {
public:
    explicit RandomBuilt(const random_pipeline::RandomPipelineSpec &spec) : p_(random_pipeline::build_random_pipeline(spec)) {}
    std::vector<Halide::Internal::Function> outputs() const override { return p_.output_functions(); }

private:
    random_pipeline::RandomPipeline p_;
};

class SuiteBuilt : public BuiltPipeline {
public:
    explicit SuiteBuilt(ansor_apps::SuitePipeline p) : p_(std::move(p)) {}
    std::vector<Halide::Internal::Function> outputs() const override { return p_.outputs(); }

private:
    ansor_apps::SuitePipeline p_;
};

class AppBuilt : public BuiltPipeline {
public:
    explicit AppBuilt(ansor_apps::AppPipeline app) : app_(std::move(app)) {}
    std::vector<Halide::Internal::Function> outputs() const override {
        std::vector<Halide::Internal::Function> out;
        for (const Halide::Func &f : app_.pipeline.outputs()) out.push_back(f.function());
        return out;
    }

private:
    ansor_apps::AppPipeline app_;
};

const ansor_apps::AppInfo *known_app(const std::string &generator) {
    for (const ansor_apps::AppInfo &app : ansor_apps::app_list()) {
        if (app.name == generator) return &app;
    }
    return nullptr;
}

int64_t param(const PipelineSpec &spec, const std::string &name) {
    auto it = spec.params.find(name);
    if (it == spec.params.end()) throw ansor::UserError("pipeline " + spec.id() + " has no param " + name);
    return it->second;
}

// The suite or layer entry of `generator`, or null.
const ansor_ops::OpShapes *known_op(const std::string &generator) {
    for (const auto *list : {&ansor_ops::operator_suite(), &ansor_ops::layer_generators()}) {
        for (const ansor_ops::OpShapes &op : *list) {
            if (op.name == generator) return &op;
        }
    }
    return nullptr;
}

}  // namespace

int stages_for_seed(uint64_t seed) { return 2 + (int)(splitmix64(seed) % 15); }

std::vector<PipelineSpec> random_specs(uint64_t first, uint64_t last, int stages, int max_size, int min_size) {
    std::vector<PipelineSpec> out;
    for (uint64_t seed = first; seed <= last; seed++) {
        PipelineSpec s;
        s.generator = kRandomGenerator;
        s.params["seed"] = (int64_t)seed;
        s.params["stages"] = stages > 0 ? stages : stages_for_seed(seed);
        s.params["max_size"] = max_size;
        // Left out at its default, so the specs (and ids) of the pipelines
        // written before min_size existed stay the same.
        if (min_size != random_pipeline::RandomPipelineSpec().min_size) s.params["min_size"] = min_size;
        out.push_back(s);
        if (seed == last) break;  // last may be the largest uint64
    }
    return out;
}

std::vector<PipelineSpec> suite_specs() {
    std::vector<PipelineSpec> out;
    for (const ansor_ops::OpShapes &op : ansor_ops::operator_suite()) {
        for (const ansor_ops::Shape &shape : op.ansor_shapes) out.push_back(spec_of(op.name, shape));
    }
    for (const ansor_ops::OpShapes &op : ansor_ops::layer_generators()) out.push_back(spec_of(op.name, op.ansor_shapes[0]));
    return out;
}

std::vector<PipelineSpec> app_specs() {
    std::vector<PipelineSpec> out;
    for (const ansor_apps::AppInfo &app : ansor_apps::app_list()) {
        PipelineSpec s;
        s.generator = app.name;
        for (const auto &[name, value] : app.sizes) s.params[name] = value;
        out.push_back(s);
    }
    return out;
}

std::unique_ptr<BuiltPipeline> build_pipeline(const PipelineSpec &spec, const Halide::Target &target) {
    if (spec.generator == kRandomGenerator) {
        random_pipeline::RandomPipelineSpec r;
        r.seed = (uint64_t)param(spec, "seed");
        r.stages = (int)param(spec, "stages");
        r.max_size = (int)param(spec, "max_size");
        const bool has_min_size = spec.params.count("min_size") > 0;
        if (has_min_size) r.min_size = (int)param(spec, "min_size");
        if (spec.params.size() != 3u + has_min_size) {
            throw ansor::UserError("pipeline " + spec.id() + ": random_pipeline takes seed, stages, max_size and min_size");
        }
        try {
            return std::make_unique<RandomBuilt>(r);
        } catch (const std::invalid_argument &e) {
            throw ansor::UserError("pipeline " + spec.id() + ": " + e.what());
        }
    }
    if (const ansor_apps::AppInfo *app = known_app(spec.generator)) {
        std::map<std::string, std::string> sizes;
        for (const auto &[name, value] : spec.params) sizes[name] = std::to_string(value);
        try {
            return std::make_unique<AppBuilt>(ansor_apps::build_app_pipeline(app->name, false, target, sizes));
        } catch (const std::invalid_argument &e) {
            throw ansor::UserError("pipeline " + spec.id() + ": " + e.what());
        }
    }
    const ansor_ops::OpShapes *op = known_op(spec.generator);
    if (!op) throw ansor::UserError("pipeline " + spec.id() + ": unknown generator " + spec.generator);
    // The params in the generator's order, each one it has exactly once.
    ansor_ops::Shape shape;
    for (const ansor_ops::Param &p : op->small_shape) shape.push_back({p.name, (int)param(spec, p.name)});
    if (shape.size() != spec.params.size()) throw ansor::UserError("pipeline " + spec.id() + ": params that " + op->name + " does not have");
    return std::make_unique<SuiteBuilt>(ansor_apps::build_suite_pipeline(op->name, shape, target));
}

}  // namespace ansor_corpus
