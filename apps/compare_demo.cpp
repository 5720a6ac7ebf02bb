// The README's main job: schedule a matmul and a conv layer with Ansor and
// with Adams2019 (Debian's plugin), time both beside the unscheduled
// pipeline (every Func at root) in the same process and run, check every
// variant against the unscheduled output, and print the ratios.
#include <Halide.h>
#include <halide_benchmark.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

using namespace Halide;

namespace {

const Target target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");

struct Built {
    Pipeline pipeline;
    std::vector<ImageParam> inputs;
    std::vector<int> output_shape;
    double flops;
};

Built matmul(int n) {
    ImageParam A(Float(32), 2, "A"), B(Float(32), 2, "B");
    Var x("x"), y("y");
    RDom k(0, n, "k");
    Func C("matmul");
    C(x, y) = 0.f;
    C(x, y) += A(k, y) * B(x, k);
    A.dim(0).set_estimate(0, n).dim(1).set_estimate(0, n);
    B.dim(0).set_estimate(0, n).dim(1).set_estimate(0, n);
    C.set_estimate(x, 0, n).set_estimate(y, 0, n);
    return {Pipeline(C), {A, B}, {n, n}, 2.0 * n * n * n};
}

// NHWC conv 3x3, stride 1, pad 1, + bias + ReLU; channels innermost.
Built conv_layer(int hw, int ci, int co) {
    ImageParam in(Float(32), 3, "input"), w(Float(32), 4, "weights"), bias(Float(32), 1, "bias");
    Var c("c"), x("x"), y("y");
    Func padded("padded");
    padded = BoundaryConditions::constant_exterior(in, 0.f, {{0, ci}, {0, hw}, {0, hw}});
    RDom r(0, ci, 0, 3, 0, 3, "r");
    Func conv("conv"), relu("relu");
    conv(c, x, y) = bias(c);
    conv(c, x, y) += w(c, r.x, r.y, r.z) * padded(r.x, x + r.y - 1, y + r.z - 1);
    relu(c, x, y) = max(conv(c, x, y), 0.f);
    in.dim(0).set_estimate(0, ci).dim(1).set_estimate(0, hw).dim(2).set_estimate(0, hw);
    w.dim(0).set_estimate(0, co).dim(1).set_estimate(0, ci).dim(2).set_estimate(0, 3).dim(3).set_estimate(0, 3);
    bias.dim(0).set_estimate(0, co);
    relu.set_estimate(c, 0, co).set_estimate(x, 0, hw).set_estimate(y, 0, hw);
    return {Pipeline(relu), {in, w, bias}, {co, hw, hw}, 2.0 * hw * hw * co * ci * 9};
}

void root_everything(Pipeline &p) {
    std::map<std::string, Internal::Function> env;
    for (const Func &o : p.outputs()) {
        auto more = Internal::find_transitive_calls(o.function());
        env.insert(more.begin(), more.end());
    }
    for (auto &kv : env) {
        bool out = false;
        for (const Func &o : p.outputs()) out |= o.name() == kv.first;
        if (!out) Func(kv.second).compute_root();
    }
}

void bind_inputs(Built &b) {
    for (ImageParam &in : b.inputs) {
        std::vector<int> sizes;
        for (int d = 0; d < in.dimensions(); d++) {
            sizes.push_back(*as_const_int(in.parameter().extent_constraint_estimate(d)));
        }
        Buffer<float> buf(sizes);
        int i = 0;
        buf.for_each_value([&](float &v) { v = (float)((i++ * 7919) % 97) / 97.f; });
        in.set(buf);
    }
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s path/to/libansor.so path/to/libautoschedule_adams2019.so\n", argv[0]);
        return 2;
    }
    load_plugin(argv[1]);
    load_plugin(argv[2]);
    MachineParams params(2, 32 * 1024 * 1024, 40);
    struct Case {
        std::string name;
        std::function<Built()> make;
    };
    std::vector<Case> cases = {{"matmul 512x512x512", [] { return matmul(512); }},
                               {"conv3x3+ReLU 56x56x64->64", [] { return conv_layer(56, 64, 64); }}};
    std::printf("%-28s %-12s %10s %9s %10s\n", "pipeline", "variant", "ms", "GFLOP/s", "vs root");
    for (const Case &c : cases) {
        Buffer<float> reference;
        double root_ms = 0;
        for (std::string variant : {"root", "Adams2019", "Ansor"}) {
          // A variant that fails shows as such and never stops the run.
          try {
            Built b = c.make();
            if (variant == "root") root_everything(b.pipeline);
            else b.pipeline.auto_schedule(variant, target, params);
            bind_inputs(b);
            b.pipeline.compile_jit(target);
            Buffer<float> out(b.output_shape);
            b.pipeline.realize(out, target);
            std::string check = "";
            if (variant == "root") {
                reference = out.copy();
            } else {
                double worst = 0;
                out.for_each_element([&](const int *pos) {
                    double want = reference(pos), got = out(pos);
                    worst = std::max(worst, std::fabs(got - want) / std::max(1.0, std::fabs(want)));
                });
                if (worst > 1e-3) check = "  WRONG OUTPUT";
            }
            double s = Tools::benchmark(5, 10, [&] { b.pipeline.realize(out, target); });
            double ms = s * 1e3;
            if (variant == "root") root_ms = ms;
            std::printf("%-28s %-12s %10.3f %9.1f %9.2fx%s\n", c.name.c_str(), variant.c_str(), ms, b.flops / (s * 1e9),
                        root_ms / ms, check.c_str());
            std::fflush(stdout);
          } catch (const std::exception &e) {
            std::printf("%-28s %-12s FAILED: %s\n", c.name.c_str(), variant.c_str(), e.what());
            std::fflush(stdout);
          }
        }
    }
    return 0;
}
