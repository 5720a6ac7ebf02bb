#pragma once
// The sizes the app tests build each app at.
#include <map>
#include <stdexcept>
#include <string>

namespace {

// Test sizes per app: the app's features kept (padding, several tiles,
// partial tiles), its work small.
std::map<std::string, std::string> small_sizes(const std::string &app) {
    static const std::map<std::string, std::map<std::string, std::string>> sizes = {
        {"matmul", {{"M", "136"}, {"N", "112"}, {"K", "72"}}},
        {"conv_bias_relu", {{"N", "2"}, {"H", "13"}, {"W", "21"}, {"CI", "24"}, {"CO", "48"}}},
        {"separable_blur", {{"W", "600"}, {"H", "100"}}},
        {"unsharp_mask", {{"W", "600"}, {"H", "100"}}},
        {"iir_blur", {{"W", "200"}, {"H", "150"}}},
        {"stencil_chain", {{"W", "600"}, {"H", "100"}}},
        {"harris", {{"W", "600"}, {"H", "100"}}},
        {"histogram_equalize", {{"W", "600"}, {"H", "150"}}},
        {"max_filter", {{"W", "300"}, {"H", "100"}, {"R", "5"}}},
        {"bilateral_grid", {{"W", "300"}, {"H", "200"}}},
        {"local_laplacian", {{"W", "300"}, {"H", "120"}}},
        {"camera_pipe", {{"W", "600"}, {"H", "100"}}},
        {"nl_means", {{"W", "200"}, {"H", "70"}}},
        {"depthwise_separable_conv", {{"N", "2"}, {"H", "13"}, {"W", "21"}, {"CI", "24"}, {"CO", "48"}}},
    };
    auto it = sizes.find(app);
    if (it == sizes.end()) throw std::invalid_argument("no test sizes for app " + app);
    return it->second;
}

}  // namespace
