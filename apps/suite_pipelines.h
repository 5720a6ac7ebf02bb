#pragma once
// Builds an operator of the suite (generators/) at one of its shapes, in
// process, as a Halide Pipeline the benchmarks can schedule and run. The
// generator object owns the Funcs, so it lives as long as the pipeline.
#include "shapes.h"

#include <Halide.h>

#include <memory>
#include <string>

namespace ansor_apps {

struct SuitePipeline {
    std::unique_ptr<Halide::Internal::GeneratorBase> generator;
    Halide::Pipeline pipeline;
    std::vector<Halide::Internal::Function> outputs() const;
};

SuitePipeline build_suite_pipeline(const std::string &op, const ansor_ops::Shape &shape, const Halide::Target &target);

// "gmm:3" -> ("gmm", 3); "gmm" -> ("gmm", 0). Throws std::out_of_range for
// an unknown operator or shape index.
std::pair<const ansor_ops::OpShapes *, size_t> parse_op_shape(const std::string &spec);

}  // namespace ansor_apps
