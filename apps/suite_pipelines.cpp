#include "suite_pipelines.h"

namespace ansor_apps {

namespace {

// Halide 14 keeps GeneratorBase::build_pipeline() protected (GenGen and
// stubs call it from inside). A derived class may name the protected member,
// and the member pointer it yields dispatches virtually on any generator.
struct GeneratorAccess : Halide::Internal::GeneratorBase {
    static Halide::Pipeline build(Halide::Internal::GeneratorBase &g) {
        Halide::Pipeline (Halide::Internal::GeneratorBase::*method)() = &GeneratorAccess::build_pipeline;
        return (g.*method)();
    }
};

}  // namespace

std::vector<Halide::Internal::Function> SuitePipeline::outputs() const {
    std::vector<Halide::Internal::Function> out;
    for (const Halide::Func &f : pipeline.outputs()) out.push_back(f.function());
    return out;
}

SuitePipeline build_suite_pipeline(const std::string &op, const ansor_ops::Shape &shape, const Halide::Target &target) {
    SuitePipeline s;
    Halide::GeneratorContext context(target);
    s.generator = Halide::Internal::GeneratorRegistry::create(op, context);
    Halide::Internal::GeneratorParamsMap params;
    for (const auto &p : shape) params[p.name] = std::to_string(p.value);
    s.generator->set_generator_param_values(params);
    s.pipeline = GeneratorAccess::build(*s.generator);
    return s;
}

std::pair<const ansor_ops::OpShapes *, size_t> parse_op_shape(const std::string &spec) {
    auto colon = spec.find(':');
    const ansor_ops::OpShapes &op = ansor_ops::find_op(spec.substr(0, colon));
    size_t index = colon == std::string::npos ? 0 : (size_t)std::stoul(spec.substr(colon + 1));
    if (index >= op.ansor_shapes.size()) throw std::out_of_range("operator " + op.name + " has no shape " + std::to_string(index));
    return {&op, index};
}

}  // namespace ansor_apps
