#pragma once
// Plain-loop references for the network-layer generators
// (generators/layers/), accumulating in double. Buffers use the generators'
// Halide layouts (innermost dimension first) with every min at 0; `params`
// are the generator params the pipeline was built with.
#include "network/generator_pipeline.h"

#include <Halide.h>

#include <map>
#include <string>

namespace ansor_tasks_test {

using Inputs = std::map<std::string, Halide::Buffer<float>>;  // by Input name

// The expected output of generator `name`; throws std::invalid_argument for
// a generator without a reference here.
Halide::Buffer<float> reference_output(const std::string &name, const ansor::GeneratorParamValues &params,
                                       const Inputs &in);

}  // namespace ansor_tasks_test
