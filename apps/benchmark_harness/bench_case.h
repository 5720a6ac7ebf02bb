#pragma once
// What the harness benchmarks: one case is an app (apps/app_pipelines/) at
// its sizes or an operator of generators/ at one shape. A case knows how to
// build its pipeline in process and, for a matrix product or a 2-D
// convolution, the problem the vendor libraries solve and which pipeline
// inputs feed it.
#include "shapes.h"
#include "vendor/problem.h"

#include <Halide.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ansor_harness {

struct VendorSpec {
    ansor_vendor::Problem problem;
    std::vector<std::string> input_names;  // the pipeline inputs, in the problem's operand order
};

struct BenchCase {
    enum class Kind { App, Op } kind = Kind::Op;
    std::string name;       // "matmul", "gmm:0", "gmm:small", "matmul[M=64,N=64,K=64]"
    std::string generator;  // the generator's registered name
    std::string params;     // "M=1024 N=1024 K=1024"
    bool has_expert = false;
    bool flops_defined = true;  // false for apps whose flop count is not meaningful (AppInfo::flops == 0)
    std::map<std::string, std::string> app_overrides;  // apps: sizes changed from the defaults
    ansor_ops::Shape op_shape;                        // ops
    std::optional<VendorSpec> vendor;
    std::string file_stem() const;  // the name made safe for file names
};

struct BuiltPipeline {
    std::unique_ptr<Halide::Internal::GeneratorBase> generator;  // owns the Funcs
    Halide::Pipeline pipeline;
    std::vector<Halide::Internal::Function> outputs() const;
};

// expert: the app's hand-written schedule applied (apps only).
BuiltPipeline build_case_pipeline(const BenchCase &c, bool expert, const Halide::Target &target);

// "gmm" (shape 0), "gmm:2", "gmm:small". Throws std::invalid_argument naming
// the operator or shape.
BenchCase op_case(const std::string &spec);

// Whether the app pipelines are built into this harness.
bool apps_available();
// Every app's name, in app_list() order (empty without the apps).
std::vector<std::string> app_names();
// "matmul" or "matmul:M=64:N=64:K=64". Throws std::invalid_argument naming
// an unknown app or size.
BenchCase app_case(const std::string &spec);

}  // namespace ansor_harness
