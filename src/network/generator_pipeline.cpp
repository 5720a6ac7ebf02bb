#include "network/generator_pipeline.h"

#include <algorithm>
#include <stdexcept>

namespace ansor {

namespace {

// Halide 14 keeps GeneratorBase::build_pipeline() protected. A derived class
// may name the protected member, and the member pointer it yields dispatches
// virtually on any generator (the same device as apps/suite_pipelines.cpp).
struct GeneratorAccess : Halide::Internal::GeneratorBase {
    static Halide::Pipeline build(Halide::Internal::GeneratorBase &g) {
        Halide::Pipeline (Halide::Internal::GeneratorBase::*method)() = &GeneratorAccess::build_pipeline;
        return (g.*method)();
    }
};

std::string join(const std::vector<std::string> &v) {
    std::string s;
    for (const auto &x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
}

}  // namespace

std::vector<Halide::Internal::Function> GeneratorPipeline::outputs() const {
    std::vector<Halide::Internal::Function> out;
    for (const Halide::Func &f : pipeline.outputs()) out.push_back(f.function());
    return out;
}

std::vector<std::string> registered_generators() {
    std::vector<std::string> names = Halide::Internal::GeneratorRegistry::enumerate();
    std::sort(names.begin(), names.end());
    return names;
}

GeneratorPipeline build_generator_pipeline(const std::string &generator, const GeneratorParamValues &params,
                                           const Halide::Target &target) {
    std::vector<std::string> known = registered_generators();
    if (!std::binary_search(known.begin(), known.end(), generator)) {
        throw std::invalid_argument("unknown generator '" + generator + "' (registered: " + join(known) + ")");
    }
    for (const char *reserved : {"target", "auto_schedule", "machine_params"}) {
        if (params.count(reserved)) {
            throw std::invalid_argument("generator '" + generator + "': param '" + reserved +
                                        "' is set by the tuning tool, not by the task");
        }
    }
    GeneratorPipeline g;
    Halide::GeneratorContext context(target);
    Halide::Internal::GeneratorParamsMap map(params.begin(), params.end());
    try {
        g.generator = Halide::Internal::GeneratorRegistry::create(generator, context);
        g.generator->set_generator_param_values(map);
        g.pipeline = GeneratorAccess::build(*g.generator);
    } catch (const Halide::Error &e) {
        throw std::invalid_argument("generator '" + generator + "' with " + generator_param_args(params) + ": " +
                                    e.what());
    } catch (const std::invalid_argument &e) {
        throw std::invalid_argument("generator '" + generator + "' with " + generator_param_args(params) + ": " +
                                    e.what());
    }
    return g;
}

std::string generator_param_args(const GeneratorParamValues &params) {
    std::string s;
    for (const auto &[name, value] : params) s += (s.empty() ? "" : " ") + name + "=" + value;
    return s;
}

}  // namespace ansor
