// Each network-layer generator (generators/layers/) at small shapes, built
// in process, run with every Func at root (the correctness reference of
// every schedule) and checked against the plain loops of
// layer_references.cpp. Building the DAG also checks that every input and
// output has estimates.
#include "network/generator_pipeline.h"
#include "layer_references.h"

#include "dag/pipeline_dag.h"
#include "measure/pipeline_runner.h"
#include "records/pipeline_key.h"
#include "util/target.h"

#include "shapes.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace ansor;

namespace {

const Halide::Target target(ansor::project_cpu_target());

GeneratorParamValues values(const ansor_ops::Shape &shape) {
    GeneratorParamValues v;
    for (const auto &p : shape) v[p.name] = std::to_string(p.value);
    return v;
}

// Largest |got - want| / max(1, |want|) over the output.
double check(const std::string &generator, const GeneratorParamValues &params) {
    INFO(generator << " " << generator_param_args(params));
    GeneratorPipeline g = build_generator_pipeline(generator, params, target);
    ansor::PipelineDAG dag(g.outputs(), 1);
    ansor::PipelineRunner runner(dag, nullptr, ansor::measurement_target(target));
    runner.compile();
    runner.run();
    // The runner bound its random inputs to the pipeline's Parameters.
    ansor_tasks_test::Inputs inputs;
    for (const auto &in : dag.inputs()) inputs[ansor::strip_uniquifier(in.name)] = Halide::Buffer<float>(in.param.buffer());
    Halide::Buffer<float> want = ansor_tasks_test::reference_output(generator, params, inputs);
    Halide::Buffer<float> got(runner.outputs().at(0));
    REQUIRE(got.dimensions() == want.dimensions());
    for (int d = 0; d < got.dimensions(); d++) REQUIRE(got.dim(d).extent() == want.dim(d).extent());
    double worst = 0;
    want.for_each_element([&](const int *pos) {
        double w = want(pos), x = got(pos);
        worst = std::max(worst, std::isfinite(x) ? std::abs(x - w) / std::max(1.0, std::abs(w)) : INFINITY);
    });
    return worst;
}

GeneratorParamValues with(GeneratorParamValues v, const std::map<std::string, std::string> &changes) {
    for (const auto &[k, x] : changes) v[k] = x;
    return v;
}

}  // namespace

TEST_CASE("layer generators: every one at its small shape matches the plain-loop reference") {
    for (const auto &op : ansor_ops::layer_generators()) CHECK(check(op.name, values(op.small_shape)) < 1e-4);
}

TEST_CASE("layer generators: variants (no padding, 1x1, other activations, no residual, average pooling)") {
    auto conv = values(ansor_ops::find_layer("conv2d_bias_act").small_shape);
    CHECK(check("conv2d_bias_act", with(conv, {{"k", "1"}, {"p", "0"}, {"s", "1"}, {"act", "1"}, {"residual", "0"}})) < 1e-4);
    CHECK(check("conv2d_bias_act", with(conv, {{"act", "0"}})) < 1e-4);
    auto dw = values(ansor_ops::find_layer("depthwise_bias_act").small_shape);
    CHECK(check("depthwise_bias_act", with(dw, {{"s", "1"}, {"act", "1"}})) < 1e-4);
    auto dense = values(ansor_ops::find_layer("dense_bias_act").small_shape);
    CHECK(check("dense_bias_act", with(dense, {{"N", "1"}, {"act", "0"}})) < 1e-4);
    CHECK(check("dense_bias_act", with(dense, {{"act", "6"}})) < 1e-4);
    auto ln = values(ansor_ops::find_layer("layer_norm").small_shape);
    CHECK(check("layer_norm", with(ln, {{"residual", "0"}})) < 1e-4);
    // Global average pooling (k = H = W, no padding) and a padded average.
    CHECK(check("pool2d", {{"N", "1"}, {"H", "5"}, {"W", "5"}, {"C", "4"}, {"k", "5"}, {"s", "1"}, {"p", "0"}, {"mode", "1"}}) < 1e-4);
    CHECK(check("pool2d", {{"N", "1"}, {"H", "6"}, {"W", "7"}, {"C", "2"}, {"k", "3"}, {"s", "2"}, {"p", "1"}, {"mode", "1"}}) < 1e-4);
}

TEST_CASE("layer generators: a wrong reference is caught (the check can fail)") {
    // No activation built, relu expected: signed inputs make negative conv sums.
    auto conv = values(ansor_ops::find_layer("conv2d_bias_act").small_shape);
    GeneratorParamValues built = with(conv, {{"act", "0"}, {"CI", "8"}});
    GeneratorPipeline g = build_generator_pipeline("conv2d_bias_act", built, target);
    ansor::PipelineDAG dag(g.outputs(), 1);
    ansor::PipelineRunner runner(dag, nullptr, ansor::measurement_target(target));
    runner.compile();
    runner.run();
    ansor_tasks_test::Inputs inputs;
    for (const auto &in : dag.inputs()) inputs[ansor::strip_uniquifier(in.name)] = Halide::Buffer<float>(in.param.buffer());
    Halide::Buffer<float> want = ansor_tasks_test::reference_output("conv2d_bias_act", with(built, {{"act", "1"}}), inputs);
    Halide::Buffer<float> got(runner.outputs().at(0));
    double worst = 0;
    want.for_each_element([&](const int *pos) { worst = std::max(worst, (double)std::abs(got(pos) - want(pos))); });
    CHECK(worst > 0.1);
}

TEST_CASE("layer generators: bad params are errors naming the generator and param") {
    CHECK_THROWS_WITH_AS(build_generator_pipeline("no_such_layer", {}, target),
                         doctest::Contains("unknown generator 'no_such_layer'"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(build_generator_pipeline("dense_bias_act", {{"act", "3"}}, target),
                         doctest::Contains("act=3"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(build_generator_pipeline("dense_bias_act", {{"Q", "3"}}, target),
                         doctest::Contains("dense_bias_act"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(build_generator_pipeline("pool2d", {{"target", "host"}}, target),
                         doctest::Contains("set by the tuning tool"), std::invalid_argument);
}
