// ansor_onednn_layers: the latency of each task of a task file computed by
// oneDNN 2.6 (the vendor library), for the layers oneDNN has: convolutions
// with their bias / residual-sum / activation fused as post-ops, depthwise
// convolutions (groups = channels), dense layers and batch matmuls (matmul
// with bias and activation post-ops), max / average pooling, transposed 2-D
// convolutions (deconvolution) and 3-D convolutions. Other tasks print "n/a".
//
//   ansor_onednn_layers --tasks networks/resnet50.json [--repeats 10] [--rounds 10]
//
// Prints "task,ms" lines: the min over `repeats` timed runs per layer, spread
// over `rounds` rounds through all layers (each after a warm-up run).
// oneDNN picks its own memory layouts (format_tag::any, i.e. its blocked
// layouts); reorders from the project's NHWC are outside the timing. Its
// threads are OpenMP's: set OMP_NUM_THREADS (ansor_network_latency does).
// Runs in its own process, apart from Halide.
#include "cli.h"
#include "network/task_file.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <optional>

namespace {

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

int param(const ansor::TaskSpec &t, const std::string &name) {
    auto it = t.params.find(name);
    if (it == t.params.end()) throw std::invalid_argument("task " + t.name + " has no param " + name);
    return std::stoi(it->second);
}

int window_out(int in, int k, int s, int p) { return (in + 2 * p - k) / s + 1; }

// One primitive with its arguments, memory allocated in the layouts it chose.
struct Prepared {
    primitive prim;
    std::unordered_map<int, memory> args;
};

memory filled(const memory::desc &md, const engine &eng) {
    memory m(md, eng);
    float *p = static_cast<float *>(m.get_data_handle());
    size_t n = md.get_size() / sizeof(float);
    for (size_t i = 0; i < n; i++) p[i] = (float)((i * 2654435761u) % 1000) / 1000.f;
    return m;
}

post_ops activation(int act, bool residual) {
    post_ops ops;
    if (residual) ops.append_sum(1.f);
    if (act == 1) ops.append_eltwise(1.f, algorithm::eltwise_relu, 0.f, 0.f);
    else if (act == 6) ops.append_eltwise(1.f, algorithm::eltwise_clip, 0.f, 6.f);
    else if (act == 2) ops.append_eltwise(1.f, algorithm::eltwise_gelu_tanh, 0.f, 0.f);
    else if (act != 0) throw std::invalid_argument("unknown act " + std::to_string(act));
    return ops;
}

template <typename PD>
Prepared conv_like(const PD &pd, const engine &eng, bool bias) {
    Prepared p;
    p.args[DNNL_ARG_SRC] = filled(pd.src_desc(), eng);
    p.args[DNNL_ARG_WEIGHTS] = filled(pd.weights_desc(), eng);
    if (bias) p.args[DNNL_ARG_BIAS] = filled(pd.bias_desc(), eng);
    p.args[DNNL_ARG_DST] = filled(pd.dst_desc(), eng);
    return p;
}

// Conv (2-D or 3-D; groups > 1 for depthwise) with NHWC logical shapes.
Prepared convolution(const engine &eng, memory::dims src, memory::dims wei, memory::dims dst, memory::dims strides,
                     memory::dims pad, bool bias, int act, bool residual) {
    memory::desc s(src, dt::f32, tag::any), w(wei, dt::f32, tag::any), d(dst, dt::f32, tag::any);
    memory::desc b({dst[1]}, dt::f32, tag::x);
    primitive_attr attr;
    attr.set_post_ops(activation(act, residual));
    auto desc = bias ? convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct, s, w, b, d,
                                                 strides, pad, pad)
                     : convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct, s, w, d,
                                                 strides, pad, pad);
    convolution_forward::primitive_desc pd(desc, attr, eng);
    Prepared p = conv_like(pd, eng, bias);
    p.prim = convolution_forward(pd);
    return p;
}

Prepared matmul_layer(const engine &eng, memory::dims a, memory::dims b, memory::dims c, bool bias, int act) {
    memory::desc am(a, dt::f32, a.size() == 2 ? tag::ab : tag::abc), bm(b, dt::f32, tag::any),
        cm(c, dt::f32, c.size() == 2 ? tag::ab : tag::abc);
    memory::dims bias_dims(c.size(), 1);
    bias_dims.back() = c.back();
    memory::desc biasm(bias_dims, dt::f32, c.size() == 2 ? tag::ab : tag::abc);
    primitive_attr attr;
    attr.set_post_ops(activation(act, false));
    auto desc = bias ? matmul::desc(am, bm, biasm, cm) : matmul::desc(am, bm, cm);
    matmul::primitive_desc pd(desc, attr, eng);
    Prepared p = conv_like(pd, eng, bias);
    p.prim = matmul(pd);
    return p;
}

// nullopt: oneDNN has no such layer here.
std::optional<Prepared> prepare(const ansor::TaskSpec &t, const engine &eng) {
    const std::string &g = t.generator;
    if (g == "conv2d_bias_act" || g == "c2d" || g == "conv_layer") {
        int N = param(t, "N"), H = param(t, "H"), W = param(t, "W"), CI = param(t, "CI"), CO = param(t, "CO");
        int k = param(t, "k"), s = param(t, "s"), p = param(t, "p");
        int act = g == "c2d" ? 0 : g == "conv_layer" ? 1 : param(t, "act");
        bool res = g == "conv2d_bias_act" && param(t, "residual");
        return convolution(eng, {N, CI, H, W}, {CO, CI, k, k}, {N, CO, window_out(H, k, s, p), window_out(W, k, s, p)},
                           {s, s}, {p, p}, g != "c2d", act, res);
    }
    if (g == "depthwise_bias_act" || g == "dep") {
        int N = param(t, "N"), H = param(t, "H"), W = param(t, "W"), C = param(t, "C");
        int k = param(t, "k"), s = param(t, "s"), p = param(t, "p");
        return convolution(eng, {N, C, H, W}, {C, 1, 1, k, k}, {N, C, window_out(H, k, s, p), window_out(W, k, s, p)},
                           {s, s}, {p, p}, g != "dep", g == "dep" ? 0 : param(t, "act"), false);
    }
    if (g == "c3d") {
        int N = param(t, "N"), D = param(t, "D"), H = param(t, "H"), W = param(t, "W"), CI = param(t, "CI"),
            CO = param(t, "CO"), k = param(t, "k"), s = param(t, "s"), p = param(t, "p");
        return convolution(eng, {N, CI, D, H, W}, {CO, CI, k, k, k},
                           {N, CO, window_out(D, k, s, p), window_out(H, k, s, p), window_out(W, k, s, p)}, {s, s, s},
                           {p, p, p}, false, 0, false);
    }
    if (g == "t2d") {
        int N = param(t, "N"), H = param(t, "H"), W = param(t, "W"), CI = param(t, "CI"), CO = param(t, "CO");
        int k = param(t, "k"), s = param(t, "s"), p = param(t, "p");
        int OH = (H - 1) * s - 2 * p + k, OW = (W - 1) * s - 2 * p + k;
        memory::desc sm({N, CI, H, W}, dt::f32, tag::any), wm({CO, CI, k, k}, dt::f32, tag::any),
            dm({N, CO, OH, OW}, dt::f32, tag::any);
        deconvolution_forward::desc desc(prop_kind::forward_inference, algorithm::deconvolution_direct, sm, wm, dm,
                                         {s, s}, {p, p}, {p, p});
        deconvolution_forward::primitive_desc pd(desc, eng);
        Prepared prep = conv_like(pd, eng, false);
        prep.prim = deconvolution_forward(pd);
        return prep;
    }
    if (g == "dense_bias_act") {
        int N = param(t, "N"), K = param(t, "K"), M = param(t, "M");
        return matmul_layer(eng, {N, K}, {K, M}, {N, M}, true, param(t, "act"));
    }
    if (g == "gmm") {
        int B = param(t, "B"), N = param(t, "N"), M = param(t, "M"), K = param(t, "K");
        return matmul_layer(eng, {B, N, K}, {B, K, M}, {B, N, M}, false, 0);
    }
    if (g == "pool2d") {
        int N = param(t, "N"), H = param(t, "H"), W = param(t, "W"), C = param(t, "C");
        int k = param(t, "k"), s = param(t, "s"), p = param(t, "p");
        memory::desc sm({N, C, H, W}, dt::f32, tag::nhwc),
            dm({N, C, window_out(H, k, s, p), window_out(W, k, s, p)}, dt::f32, tag::nhwc);
        algorithm alg = param(t, "mode") == 0 ? algorithm::pooling_max : algorithm::pooling_avg_include_padding;
        pooling_forward::desc desc(prop_kind::forward_inference, alg, sm, dm, {s, s}, {k, k}, {p, p}, {p, p});
        pooling_forward::primitive_desc pd(desc, eng);
        Prepared prep;
        prep.args[DNNL_ARG_SRC] = filled(pd.src_desc(), eng);
        prep.args[DNNL_ARG_DST] = filled(pd.dst_desc(), eng);
        prep.prim = pooling_forward(pd);
        return prep;
    }
    return std::nullopt;
}

double time_ms(Prepared &p, stream &s, int repeats) {
    p.prim.execute(s, p.args);
    s.wait();
    double best = 1e30;
    for (int r = 0; r < repeats; r++) {
        auto t0 = std::chrono::steady_clock::now();
        p.prim.execute(s, p.args);
        s.wait();
        best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

}  // namespace

int main(int argc, char **argv) {
    std::string tasks;
    int repeats = 10, rounds = 10;
    ansor_cli::Parser p("ansor_onednn_layers", "The tasks' layers timed with oneDNN, as CSV lines task,ms.");
    p.option("--tasks", &tasks, "the task file", "FILE.json").required();
    p.option("--repeats", &repeats, "runs per layer (at least 1)");
    p.option("--rounds", &rounds, "rounds over all layers (at least 1)", "R");
    p.parse(argc, argv);
    repeats = std::max(1, repeats);
    rounds = std::max(1, rounds);
    try {
        ansor::TaskFile file = ansor::load_task_file(tasks);
        engine eng(engine::kind::cpu, 0);
        stream s(eng);
        std::vector<std::optional<Prepared>> layers;
        std::vector<std::string> status(file.tasks.size(), "n/a");
        std::vector<double> best(file.tasks.size(), 1e30);
        for (size_t i = 0; i < file.tasks.size(); i++) {
            try {
                layers.push_back(prepare(file.tasks[i], eng));
                if (layers.back()) status[i] = "ok";
            } catch (const dnnl::error &e) {
                layers.push_back(std::nullopt);
                status[i] = "failed";
                std::fprintf(stderr, "ansor_onednn_layers: %s: %s\n", file.tasks[i].name.c_str(), e.what());
            }
        }
        // Rounds over all layers, each layer's runs spread over the whole
        // sweep: on a shared machine a layer timed only in one burst can
        // fall entirely into a period where another process holds a core.
        for (int r = 0; r < rounds; r++) {
            for (size_t i = 0; i < layers.size(); i++) {
                if (layers[i]) best[i] = std::min(best[i], time_ms(*layers[i], s, std::max(1, repeats / rounds)));
            }
        }
        for (size_t i = 0; i < layers.size(); i++) {
            if (status[i] == "ok") std::printf("%s,%.6f\n", file.tasks[i].name.c_str(), best[i]);
            else std::printf("%s,%s\n", file.tasks[i].name.c_str(), status[i].c_str());
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "ansor_onednn_layers: %s\n", e.what());
        return 1;
    }
    return 0;
}
