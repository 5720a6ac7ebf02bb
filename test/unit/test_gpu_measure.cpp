// GPU measurement without a GPU: hand-written Halide GPU schedules built
// ahead of time, checked with ptxas (CUDA) and run by ansor_runner on
// PoCL (OpenCL on the CPU), against the CPU reference.
#include "measure/gpu_build.h"
#include "measure/gpu_measurer.h"
#include "measure/runner_location.h"
#include "measure/runner_files.h"
#include "measure/subprocess.h"
#include "options/options.h"
#include "util/errors.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <unistd.h>

using namespace ansor;
using namespace Halide;

namespace {

const char *const kHost = "x86-64-linux-avx-avx2-f16c-fma-sse41";

Target opencl() { return Target(std::string(kHost) + "-opencl"); }
Target cuda() { return Target(std::string(kHost) + "-cuda-cuda_capability_80"); }

MeasureOptions gpu_options(const Target &t) {
    MeasureOptions o;
    o.target = t;
    o.threads = 2;
    o.repeats = 2;
    o.measure_seconds = 0;
    o.timeout_s = 120;
    o.builders = 2;  // candidates compile two at a time, then run one at a time
    return o;
}

std::vector<Internal::Function> functions(const Func &f) { return {f.function()}; }

// A fresh definition each call (fresh Funcs and Params with the same
// names), so that the DAG is built from an unscheduled copy and each
// candidate schedules its own.
struct Gemm {
    static constexpr int N = 128;
    ImageParam A{Float(32), 2, "A"}, B{Float(32), 2, "B"};
    Func acc{"acc"}, C{"C"};
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    // transposed_b: a different definition (reads B(k, x)), to be caught as wrong.
    explicit Gemm(bool transposed_b = false) {
        RDom k(0, N, "k");
        acc(x, y) = 0.f;
        acc(x, y) += A(k, y) * (transposed_b ? B(k, x) : B(x, k));
        C(x, y) = acc(x, y);
        for (ImageParam *p : {&A, &B}) p->dim(0).set_estimate(0, N).dim(1).set_estimate(0, N);
        C.set_estimate(x, 0, N).set_estimate(y, 0, N);
    }
    // 16x16 threads per block; each thread's accumulator at the thread loop.
    Pipeline thread_accumulator() {
        C.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
        acc.compute_at(C, xi);
        return Pipeline(C);
    }
    // 8x8 threads, each computing a fully unrolled 16x16 register tile: 256
    // live accumulators per thread.
    Pipeline huge_register_tile() {
        Var xt("xt"), yt("yt"), xr("xr"), yr("yr");
        C.tile(x, y, xt, yt, xr, yr, 16, 16).gpu_tile(xt, yt, xo, yo, xi, yi, 8, 8).unroll(xr).unroll(yr);
        acc.compute_at(C, xi).unroll(x).unroll(y);
        acc.update().reorder(x, y).unroll(x).unroll(y);
        return Pipeline(C);
    }
};

// Two 3x3 box stencils; the first computed per block (GPU shared memory).
struct StencilChain {
    static constexpr int N = 126;
    ImageParam in{Float(32), 2, "in"};
    Func blur1{"blur1"}, out{"out"};
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    StencilChain() {
        Expr s1 = 0.f, s2 = 0.f;
        for (int dy = 0; dy < 3; dy++) {
            for (int dx = 0; dx < 3; dx++) s1 += in(x + dx, y + dy);
        }
        blur1(x, y) = s1 / 9;
        for (int dy = 0; dy < 3; dy++) {
            for (int dx = 0; dx < 3; dx++) s2 += blur1(x + dx, y + dy);
        }
        out(x, y) = s2 / 9;
        in.dim(0).set_estimate(0, N + 4).dim(1).set_estimate(0, N + 4);
        out.set_estimate(x, 0, N).set_estimate(y, 0, N);
    }
    Pipeline shared_producer() {
        out.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
        blur1.compute_at(out, xo).gpu_threads(x, y);
        return Pipeline(out);
    }
    // The first stencil at root in 24x24 tiles rounded up past its 128x128
    // region: it reads the input beyond what the reference read.
    Pipeline rounded_up_root_producer() {
        out.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
        blur1.compute_root().gpu_tile(x, y, xo, yo, xi, yi, 24, 24, TailStrategy::RoundUp);
        return Pipeline(out);
    }
    // 64 x 32 threads per block: twice what a block may have.
    Pipeline too_many_threads() {
        out.gpu_tile(x, y, xo, yo, xi, yi, 64, 32);
        return Pipeline(out);
    }
};

struct Softmax {
    static constexpr int W = 256, H = 64;
    ImageParam in{Float(32), 2, "in"};
    Func mx{"mx"}, e{"e"}, s{"s"}, out{"out"};
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    Softmax() {
        RDom r(0, W, "r");
        mx(y) = Float(32).min();
        mx(y) = max(mx(y), in(r, y));
        e(x, y) = exp(in(x, y) - mx(y));
        s(y) = 0.f;
        s(y) += e(r, y);
        out(x, y) = e(x, y) / s(y);
        in.dim(0).set_estimate(0, W).dim(1).set_estimate(0, H);
        out.set_estimate(x, 0, W).set_estimate(y, 0, H);
    }
    Pipeline rows_per_thread() {
        out.gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
        for (Func *f : {&mx, &s}) {
            f->compute_root().gpu_tile(f->args()[0], yo, yi, 16);
            f->update().gpu_tile(f->args()[0], yo, yi, 16);
        }
        return Pipeline(out);
    }
};

std::string temp_dir() {
    std::string pattern = "/tmp/ansor-gpu-test-XXXXXX";
    REQUIRE(mkdtemp(pattern.data()));
    return pattern;
}

bool has_nvidia_device() { return std::filesystem::exists("/dev/nvidia0"); }

}  // namespace

TEST_CASE("gpu measure: OpenCL schedules of a GEMM, a stencil chain and a softmax run correctly on PoCL") {
    Gemm gemm_def;
    PipelineDAG gemm_dag(functions(gemm_def.C), 2);
    GpuMeasurer gemm(gemm_dag, gpu_options(opencl()));
    REQUIRE(gemm.runs_programs());
    Gemm right, wrong(true);
    std::vector<MeasureResult> r = gemm.measure_pipelines({right.thread_accumulator(), wrong.thread_accumulator()});
    REQUIRE(r.size() == 2);
    CHECK_MESSAGE(r[0].ok, r[0].error);
    CHECK(r[0].device == "pocl-cpu");
    CHECK(r[0].min_ms > 0);
    CHECK(r[0].median_ms >= r[0].min_ms);
    CHECK(r[0].runs == 2);
    // A candidate whose definition differs from the pipeline's is a recorded failure.
    CHECK_FALSE(r[1].ok);
    CHECK_FALSE(r[1].not_run);
    CHECK_MESSAGE(r[1].error.find("wrong output: C element") == 0, r[1].error);

    StencilChain stencil_def, stencil, rounded_up;
    PipelineDAG stencil_dag(functions(stencil_def.out), 2);
    GpuMeasurer stencil_measurer(stencil_dag, gpu_options(opencl()));
    r = stencil_measurer.measure_pipelines({stencil.shared_producer(), rounded_up.rounded_up_root_producer()});
    CHECK_MESSAGE(r[0].ok, r[0].error);
    CHECK(r[0].device == "pocl-cpu");
    // A schedule that reads an input beyond what the pipeline needs would fail
    // on inputs of the pipeline's sizes: rejected before it runs.
    CHECK_FALSE(r[1].ok);
    CHECK_MESSAGE(r[1].error.find("reads input") != std::string::npos, r[1].error);
    CHECK_MESSAGE(r[1].error.find("the pipeline needs") != std::string::npos, r[1].error);
    // A State goes the same way (applied to a deep copy); with no steps it
    // is the default schedule, which runs on the host part.
    r = stencil_measurer.measure({State(stencil_dag)});
    CHECK_MESSAGE(r[0].ok, r[0].error);

    Softmax softmax_def, softmax;
    PipelineDAG softmax_dag(functions(softmax_def.out), 2);
    r = GpuMeasurer(softmax_dag, gpu_options(opencl())).measure_pipelines({softmax.rows_per_thread()});
    CHECK_MESSAGE(r[0].ok, r[0].error);
    CHECK(r[0].device == "pocl-cpu");
}

TEST_CASE("gpu build: ptxas passes a CUDA GEMM within the limits and rejects 2048 threads and a spilling register tile") {
    const std::string dir = temp_dir();
    {
        Gemm g;
        GpuBuild b = build_gpu_program(g.thread_accumulator(), cuda(), dir);
        REQUIRE(b.kernels.size() == 1);
        CHECK(b.kernels[0].registers > 0);
        CHECK(b.kernels[0].spill_store_bytes == 0);
        REQUIRE(b.launches.size() == 1);
        CHECK(b.launches[0].kernel == b.kernels[0].kernel);
        CHECK(b.launches[0].threads == 256);
        CHECK(std::filesystem::exists(b.shared_object));
    }
    {
        StencilChain s;
        try {
            build_gpu_program(s.too_many_threads(), cuda(), dir);
            FAIL("a block of 2048 threads was accepted");
        } catch (const GpuProgramRejected &e) {
            CHECK_MESSAGE(std::string(e.what()).find("2048 threads per block (64 x 32 x 1) > 1024") != std::string::npos,
                          e.what());
        }
    }
    {
        Gemm g;
        try {
            build_gpu_program(g.huge_register_tile(), cuda(), dir);
            FAIL("a spilling 16x16 register tile was accepted");
        } catch (const GpuProgramRejected &e) {
            const std::string why = e.what();
            CHECK_MESSAGE(why.find("kernel _kernel_C") != std::string::npos, why);
            CHECK_MESSAGE(why.find("bytes of spill stores per thread") != std::string::npos, why);
            CHECK_MESSAGE(why.find("> 128") != std::string::npos, why);
        }
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("gpu build: ptxas reports are parsed per kernel and the limits name the kernel and numbers") {
    const std::string report = "ptxas info    : 0 bytes gmem\n"
                               "ptxas info    : Compiling entry function 'k1' for 'sm_80'\n"
                               "ptxas info    : Function properties for k1\n"
                               "    16 bytes stack frame, 200 bytes spill stores, 180 bytes spill loads\n"
                               "ptxas info    : Used 255 registers, 1024 bytes smem, 380 bytes cmem[0]\n"
                               "ptxas info    : Compiling entry function 'k2' for 'sm_80'\n"
                               "ptxas info    : Function properties for k2\n"
                               "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                               "ptxas info    : Used 12 registers, 380 bytes cmem[0]\n";
    std::vector<KernelResources> k = parse_ptxas_report(report);
    REQUIRE(k.size() == 2);
    CHECK(k[0].kernel == "k1");
    CHECK(k[0].registers == 255);
    CHECK(k[0].static_shared_bytes == 1024);
    CHECK(k[0].spill_store_bytes == 200);
    CHECK(k[0].spill_load_bytes == 180);
    CHECK(k[1].registers == 12);
    CHECK(k[1].static_shared_bytes == 0);
    KernelLaunch l1{"k1", {16, 16, 1}, 256, 48 * 1024};
    KernelLaunch l2{"k2", {32, 32, 1}, 1024, 0};
    const std::string v = gpu_limit_violations({l1, l2}, k);
    CHECK_MESSAGE(v.find("kernel k1: 255 registers x 256 threads = 65280") == std::string::npos, v);  // within 65536
    CHECK_MESSAGE(v.find("kernel k1: 50176 bytes of shared memory (1024 static + 49152 dynamic) > 49152") !=
                      std::string::npos, v);
    CHECK_MESSAGE(v.find("kernel k1: 200 bytes of spill stores per thread") != std::string::npos, v);
    CHECK_MESSAGE(v.find("k2") == std::string::npos, v);
    KernelLaunch wide{"k1", {32, 32, 1}, 1024, 0};
    const std::string w = gpu_limit_violations({wide}, {k[0]});
    CHECK_MESSAGE(w.find("kernel k1: 255 registers x 1024 threads = 261120 registers per block > 65536") !=
                      std::string::npos, w);
}

TEST_CASE("gpu measure: a CUDA target without a device builds and checks but does not run; PoCL verifies it") {
    if (has_nvidia_device()) {
        // On a CUDA machine the candidates run there; the no-device path cannot be taken.
        CHECK(run_process({runner_path(), "--probe", "cuda"}).exit_code == 0);
        return;
    }
    Gemm def;
    PipelineDAG dag(functions(def.C), 2);
    GpuMeasurer m(dag, gpu_options(cuda()));
    CHECK_FALSE(m.runs_programs());
    CHECK_MESSAGE(m.no_device_reason().find("no CUDA device") == 0, m.no_device_reason());
    Gemm within, spilling;
    std::vector<MeasureResult> r = m.measure_pipelines({within.thread_accumulator(), spilling.huge_register_tile()});
    CHECK_FALSE(r[0].ok);
    CHECK(r[0].not_run);
    CHECK_MESSAGE(r[0].error.find("not run: no CUDA device") == 0, r[0].error);
    CHECK_FALSE(r[1].ok);
    CHECK_FALSE(r[1].not_run);
    CHECK_MESSAGE(r[1].error.find("over the GPU's limits") != std::string::npos, r[1].error);

    // The same CUDA schedules, proven on PoCL through OpenCL.
    Gemm right, wrong(true), over;
    r = verify_cuda_pipelines_on_opencl(dag, gpu_options(cuda()),
                                        {right.thread_accumulator(), wrong.thread_accumulator(), over.huge_register_tile()});
    CHECK_MESSAGE(r[0].ok, r[0].error);
    CHECK(r[0].device == "pocl-cpu");
    CHECK_FALSE(r[1].ok);
    CHECK_MESSAGE(r[1].error.find("wrong output") == 0, r[1].error);
    CHECK_FALSE(r[2].ok);
    CHECK_MESSAGE(r[2].error.find("spill stores") != std::string::npos, r[2].error);
}

TEST_CASE("gpu measure: the runner is found beside the build, probes devices, and a missing one is a clear error") {
    const std::string runner = runner_path();
    ProcessResult cuda_probe = run_process({runner, "--probe", "cuda"});
    if (has_nvidia_device()) {
        CHECK(cuda_probe.exit_code == 0);
    } else {
        CHECK(cuda_probe.exit_code == 3);
        CHECK_MESSAGE(cuda_probe.output.find("\"usable\":false") != std::string::npos, cuda_probe.output);
    }
    ProcessResult opencl_probe = run_process({runner, "--probe", "opencl"});
    CHECK(opencl_probe.exit_code == 0);
    CHECK(opencl_probe.output.find("\"usable\":true") != std::string::npos);

    // By hand: random inputs sized from the estimates, outputs to files, timed runs.
    const std::string dir = temp_dir();
    StencilChain s;
    const GpuBuild b = build_gpu_program(s.shared_producer(), opencl(), dir, "stencil");
    ProcessResult run = run_process({runner, b.shared_object, "stencil", "--random-inputs", "3", "--outputs-dir", dir,
                                     "--runs", "2"},
                                    {"HL_OCL_DEVICE_TYPE=cpu"});
    CHECK_MESSAGE(run.exit_code == 0, run.output);
    CHECK_MESSAGE(run.output.find("\"runs\":2") != std::string::npos, run.output);
    CHECK(std::filesystem::file_size(dir + "/output0.bin") == StencilChain::N * StencilChain::N * sizeof(float));
    // An input file of the wrong size is an error naming it.
    write_raw_file(dir + "/in.bin", "abc", 3);
    write_runner_spec(dir + "/spec.json", RunnerSpec{{{"in", halide_type_t(halide_type_float, 32), {0, 0}, {130, 130},
                                                       dir + "/in.bin"}}, {}, {}});
    ProcessResult bad = run_process({runner, b.shared_object, "stencil", "--inputs", dir + "/spec.json"});
    CHECK(bad.exit_code == 1);
    CHECK_MESSAGE(bad.output.find(dir + "/in.bin holds 3 bytes where 67600 were expected") != std::string::npos,
                  bad.output);
    std::filesystem::remove_all(dir);

    // The runner links no Halide: it can never load a GPU runtime next to Halide's LLVM.
    ProcessResult ldd = run_process({"ldd", runner});
    CHECK(ldd.exit_code == 0);
    CHECK_MESSAGE(ldd.output.find("Halide") == std::string::npos, ldd.output);

    // HL_ANSOR_RUNNER is a known option (the option parser rejects unknown HL_ANSOR_ names).
    CHECK(Options::from_map({{"HL_ANSOR_RUNNER", runner}}).runner == runner);
    CHECK(runner_path(runner) == runner);
    // A relative path (a plugin loaded as `-p build/libansor.so`) comes back
    // absolute: candidates run it from directories of their own.
    const std::filesystem::path from_relative = runner_path(std::filesystem::relative(runner).string());
    CHECK(from_relative.is_absolute());
    CHECK(std::filesystem::equivalent(from_relative, runner));
    CHECK_THROWS_WITH_AS(runner_path("/nonexistent/ansor_runner"), doctest::Contains("/nonexistent/ansor_runner"),
                         UserError);
}
