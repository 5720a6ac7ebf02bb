#pragma once
// Builds any registered Halide generator in process, with generator params
// given by name, as a Pipeline the tuner can schedule: the generalisation of
// apps/suite_pipelines.h (one suite operator at one of its shapes) that task
// files need. The generator object owns the Funcs, so it must live as long
// as the pipeline.
#include <Halide.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ansor {

// GeneratorParam name -> value, as GenGen takes them on its command line.
using GeneratorParamValues = std::map<std::string, std::string>;

struct GeneratorPipeline {
    std::unique_ptr<Halide::Internal::GeneratorBase> generator;
    Halide::Pipeline pipeline;
    std::vector<Halide::Internal::Function> outputs() const;
};

// Generator names registered in this process, sorted.
std::vector<std::string> registered_generators();

// Throws std::invalid_argument naming the culprit for an unregistered
// generator, a param the build sets itself (target, auto_schedule,
// machine_params), a param the generator does not have or a value it
// rejects.
GeneratorPipeline build_generator_pipeline(const std::string &generator, const GeneratorParamValues &params,
                                           const Halide::Target &target);

// "N=1 H=56 ..." in name order: the GenGen arguments that build the same pipeline.
std::string generator_param_args(const GeneratorParamValues &params);

}  // namespace ansor
