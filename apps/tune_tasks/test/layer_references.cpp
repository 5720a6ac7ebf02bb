#include "layer_references.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ansor_tasks_test {

namespace {

using Halide::Buffer;

int get(const ansor::GeneratorParamValues &p, const std::string &name) {
    auto it = p.find(name);
    if (it == p.end()) throw std::invalid_argument("reference needs param " + name);
    return std::stoi(it->second);
}

int window_out(int in, int k, int s, int p) { return (in + 2 * p - k) / s + 1; }

double activate(double x, int act) {
    switch (act) {
    case 0: return x;
    case 1: return std::max(x, 0.0);
    case 6: return std::min(std::max(x, 0.0), 6.0);
    case 2: return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
    }
    throw std::invalid_argument("reference: unknown act " + std::to_string(act));
}

const Buffer<float> &input(const Inputs &in, const std::string &name) {
    auto it = in.find(name);
    if (it == in.end()) throw std::invalid_argument("reference needs input " + name);
    return it->second;
}

Buffer<float> conv2d_bias_act(const ansor::GeneratorParamValues &p, const Inputs &in) {
    const int N = get(p, "N"), H = get(p, "H"), W = get(p, "W"), CI = get(p, "CI"), CO = get(p, "CO");
    const int K = get(p, "k"), S = get(p, "s"), P = get(p, "p"), act = get(p, "act"), res = get(p, "residual");
    const int OH = window_out(H, K, S, P), OW = window_out(W, K, S, P);
    const auto &x = input(in, "input"), &w = input(in, "weight"), &b = input(in, "bias");
    Buffer<float> out(CO, OW, OH, N);
    for (int n = 0; n < N; n++)
        for (int oy = 0; oy < OH; oy++)
            for (int ox = 0; ox < OW; ox++)
                for (int co = 0; co < CO; co++) {
                    double acc = 0;
                    for (int kh = 0; kh < K; kh++)
                        for (int kw = 0; kw < K; kw++)
                            for (int ci = 0; ci < CI; ci++) {
                                int iy = oy * S + kh - P, ix = ox * S + kw - P;
                                if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                                acc += (double)x(ci, ix, iy, n) * w(co, ci, kw, kh);
                            }
                    acc += b(co);
                    if (res) acc += input(in, "shortcut")(co, ox, oy, n);
                    out(co, ox, oy, n) = (float)activate(acc, act);
                }
    return out;
}

Buffer<float> depthwise_bias_act(const ansor::GeneratorParamValues &p, const Inputs &in) {
    const int N = get(p, "N"), H = get(p, "H"), W = get(p, "W"), C = get(p, "C");
    const int K = get(p, "k"), S = get(p, "s"), P = get(p, "p"), act = get(p, "act");
    const int OH = window_out(H, K, S, P), OW = window_out(W, K, S, P);
    const auto &x = input(in, "input"), &w = input(in, "weight"), &b = input(in, "bias");
    Buffer<float> out(C, OW, OH, N);
    for (int n = 0; n < N; n++)
        for (int oy = 0; oy < OH; oy++)
            for (int ox = 0; ox < OW; ox++)
                for (int c = 0; c < C; c++) {
                    double acc = 0;
                    for (int kh = 0; kh < K; kh++)
                        for (int kw = 0; kw < K; kw++) {
                            int iy = oy * S + kh - P, ix = ox * S + kw - P;
                            if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                            acc += (double)x(c, ix, iy, n) * w(c, kw, kh);
                        }
                    out(c, ox, oy, n) = (float)activate(acc + b(c), act);
                }
    return out;
}

Buffer<float> dense_bias_act(const ansor::GeneratorParamValues &p, const Inputs &in) {
    const int N = get(p, "N"), K = get(p, "K"), M = get(p, "M"), act = get(p, "act");
    const auto &x = input(in, "input"), &w = input(in, "weight"), &b = input(in, "bias");
    Buffer<float> out(M, N);
    for (int n = 0; n < N; n++)
        for (int m = 0; m < M; m++) {
            double acc = 0;
            for (int k = 0; k < K; k++) acc += (double)x(k, n) * w(m, k);
            out(m, n) = (float)activate(acc + b(m), act);
        }
    return out;
}

Buffer<float> layer_norm(const ansor::GeneratorParamValues &p, const Inputs &in) {
    const int N = get(p, "N"), D = get(p, "D"), res = get(p, "residual");
    const auto &x = input(in, "input"), &g = input(in, "gamma"), &b = input(in, "beta");
    Buffer<float> out(D, N);
    for (int n = 0; n < N; n++) {
        std::vector<double> v(D);
        double mean = 0, var = 0;
        for (int d = 0; d < D; d++) {
            v[d] = x(d, n) + (res ? (double)input(in, "shortcut")(d, n) : 0.0);
            mean += v[d] / D;
        }
        for (int d = 0; d < D; d++) var += (v[d] - mean) * (v[d] - mean) / D;
        for (int d = 0; d < D; d++) out(d, n) = (float)((v[d] - mean) / std::sqrt(var + 1e-5) * g(d) + b(d));
    }
    return out;
}

Buffer<float> pool2d(const ansor::GeneratorParamValues &p, const Inputs &in) {
    const int N = get(p, "N"), H = get(p, "H"), W = get(p, "W"), C = get(p, "C");
    const int K = get(p, "k"), S = get(p, "s"), P = get(p, "p"), mode = get(p, "mode");
    const int OH = window_out(H, K, S, P), OW = window_out(W, K, S, P);
    const auto &x = input(in, "input");
    Buffer<float> out(C, OW, OH, N);
    for (int n = 0; n < N; n++)
        for (int oy = 0; oy < OH; oy++)
            for (int ox = 0; ox < OW; ox++)
                for (int c = 0; c < C; c++) {
                    double acc = mode == 0 ? -std::numeric_limits<double>::infinity() : 0.0;
                    for (int kh = 0; kh < K; kh++)
                        for (int kw = 0; kw < K; kw++) {
                            int iy = oy * S + kh - P, ix = ox * S + kw - P;
                            if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                            acc = mode == 0 ? std::max(acc, (double)x(c, ix, iy, n)) : acc + x(c, ix, iy, n);
                        }
                    out(c, ox, oy, n) = (float)(mode == 0 ? acc : acc / (K * K));
                }
    return out;
}

Buffer<float> softmax(const ansor::GeneratorParamValues &p, const Inputs &in) {
    const int N = get(p, "N"), D = get(p, "D");
    const auto &x = input(in, "input");
    Buffer<float> out(D, N);
    for (int n = 0; n < N; n++) {
        double mx = -std::numeric_limits<double>::infinity(), sum = 0;
        for (int d = 0; d < D; d++) mx = std::max(mx, (double)x(d, n));
        for (int d = 0; d < D; d++) sum += std::exp(x(d, n) - mx);
        for (int d = 0; d < D; d++) out(d, n) = (float)(std::exp(x(d, n) - mx) / sum);
    }
    return out;
}

}  // namespace

Halide::Buffer<float> reference_output(const std::string &name, const ansor::GeneratorParamValues &params,
                                       const Inputs &in) {
    if (name == "conv2d_bias_act") return conv2d_bias_act(params, in);
    if (name == "depthwise_bias_act") return depthwise_bias_act(params, in);
    if (name == "dense_bias_act") return dense_bias_act(params, in);
    if (name == "layer_norm") return layer_norm(params, in);
    if (name == "pool2d") return pool2d(params, in);
    if (name == "softmax") return softmax(params, in);
    throw std::invalid_argument("no reference for generator " + name);
}

}  // namespace ansor_tasks_test
