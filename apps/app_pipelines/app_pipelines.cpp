#include "app_pipelines.h"

#include <stdexcept>

namespace ansor_apps {

namespace {

// Halide 14 keeps GeneratorBase::build_pipeline() protected. A derived class
// may take the protected member's address, and the member pointer dispatches
// virtually on any generator.
struct GeneratorAccess : Halide::Internal::GeneratorBase {
    static Halide::Pipeline build(Halide::Internal::GeneratorBase &g) {
        Halide::Pipeline (Halide::Internal::GeneratorBase::*method)() = &GeneratorAccess::build_pipeline;
        return (g.*method)();
    }
};

using Sizes = std::vector<std::pair<std::string, int>>;

double product(const Sizes &sizes) {
    double p = 1;
    for (const auto &s : sizes) p *= s.second;
    return p;
}

std::vector<AppInfo> make_app_list() {
    std::vector<AppInfo> apps;
    // Defaults here must match each generator's GeneratorParams (the test checks).
    const Sizes matmul = {{"M", 1024}, {"N", 1024}, {"K", 1024}};
    apps.push_back({"matmul", "single-precision matrix product, 1024^3", true, 2 * product(matmul), matmul});

    const Sizes conv = {{"N", 4}, {"H", 56}, {"W", 56}, {"CI", 64}, {"CO", 64}};
    apps.push_back({"conv_bias_relu", "3x3 convolution, zero padding, bias and ReLU (NHWC)", true,
                    2 * 9 * product(conv), conv});

    const Sizes image = {{"W", 2560}, {"H", 1536}};
    apps.push_back({"separable_blur", "5x5 binomial blur of a uint16 image, edges repeated", true, 0, image});
    apps.push_back({"unsharp_mask", "Gaussian unsharp mask of an RGB float image", true, 0, image});
    apps.push_back({"iir_blur", "recursive (IIR) blur down, up, right and left, RGB float", true, 0, image});
    apps.push_back({"stencil_chain", "twelve chained 3x3 stencils on a float image", true, 0, image});
    apps.push_back({"harris", "Harris corner response (Sobel, structure tensor) of an RGB float image", true, 0, image});
    apps.push_back({"histogram_equalize", "luminance histogram equalisation of an RGB uint8 image", true, 0, image});
    apps.push_back({"max_filter", "maximum over a disk of radius 12, float image", true, 0,
                    {{"W", 2560}, {"H", 1536}, {"R", 12}}});
    apps.push_back({"bilateral_grid", "bilateral grid blur (8x8 cells, 10 bins) of a float image", true, 0, image});
    apps.push_back({"local_laplacian", "local Laplacian filter, 8 pyramid levels x 8 intensities, RGB uint16 in", true, 0,
                    {{"W", 1280}, {"H", 768}, {"J", 8}, {"K", 8}}});
    apps.push_back({"camera_pipe", "raw Bayer to RGB: denoise, demosaic, colour matrix, tone curve, sharpen", true, 0,
                    image});
    apps.push_back({"nl_means", "non-local means denoising, 7x7 patches, 7x7 search window, RGB float", true, 0,
                    {{"W", 768}, {"H", 512}, {"P", 7}, {"S", 7}}});

    const Sizes mobile = {{"N", 4}, {"H", 112}, {"W", 112}, {"CI", 32}, {"CO", 64}};
    const double pixels = 4.0 * 112 * 112;
    apps.push_back({"depthwise_separable_conv", "3x3 depthwise + 1x1 pointwise convolution, bias, ReLU (NHWC)", true,
                    pixels * (2 * 9 * 32 + 2 * 32 * 64), mobile});
    return apps;
}

}  // namespace

const std::vector<AppInfo> &app_list() {
    static const std::vector<AppInfo> apps = make_app_list();
    return apps;
}

const AppInfo &find_app(const std::string &name) {
    for (const AppInfo &a : app_list()) {
        if (a.name == name) return a;
    }
    std::string known;
    for (const AppInfo &a : app_list()) known += (known.empty() ? "" : ", ") + a.name;
    throw std::invalid_argument("unknown app \"" + name + "\" (known: " + known + ")");
}

AppPipeline build_app_pipeline(const std::string &name, bool expert_schedule, const Halide::Target &target) {
    return build_app_pipeline(name, expert_schedule, target, {});
}

AppPipeline build_app_pipeline(const std::string &name, bool expert_schedule, const Halide::Target &target,
                               const std::map<std::string, std::string> &params) {
    const AppInfo &info = find_app(name);
    if (expert_schedule && !info.has_expert_schedule) {
        throw std::invalid_argument("app \"" + name + "\" has no expert schedule");
    }
    Halide::Internal::GeneratorParamsMap values;
    for (const auto &p : params) {
        bool known = false;
        for (const auto &s : info.sizes) known |= s.first == p.first;
        if (!known) throw std::invalid_argument("app \"" + name + "\" has no size parameter \"" + p.first + "\"");
        values[p.first] = p.second;
    }
    values["expert"] = expert_schedule ? "true" : "false";

    AppPipeline app;
    Halide::GeneratorContext context(target);
    app.generator = Halide::Internal::GeneratorRegistry::create(name, context);
    app.generator->set_generator_param_values(values);
    app.pipeline = GeneratorAccess::build(*app.generator);
    return app;
}

}  // namespace ansor_apps
